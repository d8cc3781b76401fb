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
