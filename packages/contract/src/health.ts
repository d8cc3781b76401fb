import { z } from 'zod';

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'unavailable']),
});
export type Health = z.infer<typeof healthSchema>;
/** The 503 of the health check carries the error code (errors.ts) as every error answer does. */
export const unhealthySchema = healthSchema.extend({ code: z.literal('db_unavailable') });

/** Liveness: the process and its event loop answer. Never depends on the database. */
export const livenessSchema = z.object({
  status: z.literal('live'),
  unhandled_rejections: z
    .number()
    .int()
    .min(0)
    .describe('Rejected promises nobody handled since the process started; each is logged'),
});

/**
 * Why an instance is not ready to take traffic: its own state. The database's reasons apply only
 * before the instance ever reached it (it could not check that its migrations are applied); a
 * database that fails later fails every instance alike, and is reported in `database` instead.
 */
export const NOT_READY_REASONS = [
  'database_unavailable',
  'database_full',
  'database_read_only',
  'migrations_pending',
  'draining',
] as const;

/** What the readiness probe's write found: `ok`, or why the database cannot serve right now. */
export const DATABASE_STATES = ['ok', 'unavailable', 'full', 'read_only'] as const;

/**
 * Readiness: 200 when this instance can serve requests, 503 with the reason when it cannot. A
 * database outage leaves a started instance ready (the database is shared: every instance would
 * fail at once and the load balancer would have nobody to ask), so its requests answer Cadre's own
 * 503 `db_unavailable`; `database` says what the probe found.
 */
export const readinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  reason: z.enum(NOT_READY_REASONS).optional(),
  database: z.enum(DATABASE_STATES).optional(),
});
export type Readiness = z.infer<typeof readinessSchema>;
/** The 503: `db_unavailable` for the database's reasons, `unavailable` for the instance's own. */
export const notReadySchema = readinessSchema.extend({ code: z.enum(['db_unavailable', 'unavailable']) });
