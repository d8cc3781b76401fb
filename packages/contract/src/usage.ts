import { z } from 'zod';

/** What usage can be grouped by: the UTC day, the agent, the model. */
export const USAGE_GROUPS = ['day', 'agent', 'model'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** Longest period one report covers. */
export const USAGE_MAX_DAYS = 366;

/**
 * `GET /api/v1/usage` (and `/usage/csv`): `from` and `to` are UTC days, both included (default: the
 * last 30 days up to today); `group_by` is a comma-separated list of day, agent and model (default
 * `day`).
 */
export const usageQuerySchema = z.strictObject({
  from: z.iso.date('must be a date (YYYY-MM-DD)').optional(),
  to: z.iso.date('must be a date (YYYY-MM-DD)').optional(),
  group_by: z
    .string()
    .regex(
      new RegExp(`^(${USAGE_GROUPS.join('|')})(,(${USAGE_GROUPS.join('|')}))*$`),
      `must be a comma-separated list of ${USAGE_GROUPS.join(', ')}`,
    )
    .optional(),
});
export type UsageQuery = z.infer<typeof usageQuerySchema>;

const usageCountsSchema = z.object({
  /** Turns started (a run continued after an approval is the same turn). */
  turns: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  total_tokens: z.number(),
  /** Some of the counts are estimated (the offline model, a provider that reports no usage). */
  estimated: z.boolean(),
  /** In the currency of the operator's prices; null when no model used had prices. */
  cost: z.number().nullable(),
  tool_calls: z.number(),
  /** Runs that ended with an error. */
  errors: z.number(),
});

/** One group of runs; the fields it is not grouped by are null. */
export const usageRowSchema = usageCountsSchema.extend({
  day: z.string().nullable(),
  agent_id: z.number().nullable(),
  /** The agent's current name; null when it was deleted since. */
  agent_name: z.string().nullable(),
  /** The offered model's id (`GET /models`). */
  model: z.string().nullable(),
});
export type UsageRow = z.infer<typeof usageRowSchema>;

export const usageReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  group_by: z.array(z.enum(USAGE_GROUPS)),
  rows: z.array(usageRowSchema),
  totals: usageCountsSchema,
  /** The caller's tokens this calendar month (UTC) against the operator's budget. */
  budget: z.object({
    /** USER_MONTHLY_TOKEN_BUDGET; null when there is none. */
    monthly_tokens: z.number().nullable(),
    used_tokens: z.number(),
    /** When the month's count starts again (the first of next month, UTC). */
    resets_at: z.string(),
  }),
});
export type UsageReport = z.infer<typeof usageReportSchema>;
