import { z } from 'zod';

/**
 * One error vocabulary for the whole API. Validation failures answer 422 with a list of
 * problems, each naming where it is (`loc`), what is wrong (`msg`) and a machine-readable `type`;
 * every other error answers `{detail: "..."}` with its status code.
 */
export const validationIssueSchema = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

export const validationErrorSchema = z.object({ detail: z.array(validationIssueSchema) });
export const errorSchema = z.object({ detail: z.string() });
export type ErrorBody = z.infer<typeof errorSchema>;

/** 503 while the database cannot serve; retry after the `Retry-After` header's seconds. */
export const unavailableErrorSchema = z.object({ detail: z.string(), code: z.literal('db_unavailable') });

/**
 * Headers of a create that may be retried safely: the same `Idempotency-Key` with the same request
 * answers with the first result for 24 hours, instead of creating a second copy.
 */
export const idempotentCreateHeadersSchema = z.looseObject({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 visible ASCII characters')
    .optional()
    .describe('A unique value per logical request (a UUID); a retry with the same key gets the first answer'),
});
