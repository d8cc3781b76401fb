import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from './error-codes.ts';

export * from './error-codes.ts';

const CODES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];
export const errorCodeSchema = z.enum(CODES);

/**
 * Validation failures answer 422 with a list of problems, each naming where it is (`loc`), what is
 * wrong (`msg`) and a machine-readable `type`; every other error answers `{detail: "..."}`. Both
 * carry `code`.
 */
export const validationIssueSchema = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

export const validationErrorSchema = z.object({
  detail: z.array(validationIssueSchema),
  code: z.literal('validation_failed'),
});
export const errorSchema = z.object({ detail: z.string(), code: errorCodeSchema });
export type ErrorBody = z.infer<typeof errorSchema>;

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
