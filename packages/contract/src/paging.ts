import { z } from 'zod';

/** The most items one page of a list carries. */
export const PAGE_LIMIT_MAX = 1000;

/**
 * `?limit=&cursor=` on a list call. Without either, the call answers the whole list in the spec's
 * shape, as it always has. With `limit`, at most that many items come after `cursor` (from the
 * first without it) in the list's order, and a full page carries a `Link: <URL>; rel="next"`
 * header naming the next page (the page after the last full one may be empty). A cursor is opaque:
 * pass on the one the previous page named.
 */
export const pageQuerySchema = z.object({
  limit: z.coerce
    .number({ error: `must be a whole number from 1 to ${PAGE_LIMIT_MAX}` })
    .int(`must be a whole number from 1 to ${PAGE_LIMIT_MAX}`)
    .min(1, `must be a whole number from 1 to ${PAGE_LIMIT_MAX}`)
    .max(PAGE_LIMIT_MAX, `must be a whole number from 1 to ${PAGE_LIMIT_MAX}`)
    .optional(),
  cursor: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, 'must be a cursor a previous page named')
    .optional(),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;
