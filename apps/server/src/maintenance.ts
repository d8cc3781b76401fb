import type { FastifyInstance } from 'fastify';
import type { Db } from './db/database.ts';
import { sweepIdempotencyKeys } from './http/idempotency.ts';
import { sweepRateLimits } from './security/rate-limit.ts';

const EVERY_MS = 10 * 60 * 1000;

/**
 * Sweeps rows that only age: rate-limit counters and stored idempotent answers past their TTL,
 * and what modules hand in (the knowledge files' bucket objects due for deletion).
 * Every instance runs it; the deletes are idempotent, so several at once cost only a few queries.
 */
export function scheduleMaintenance(
  app: FastifyInstance,
  db: Db,
  moduleSweeps: (() => Promise<void>)[] = [],
) {
  const sweep = async () => {
    try {
      await sweepRateLimits(db);
      await sweepIdempotencyKeys(db);
      for (const moduleSweep of moduleSweeps) await moduleSweep();
    } catch (err) {
      app.log.warn({ err }, 'maintenance sweep failed; it runs again later');
    }
  };
  const timer = setInterval(() => void sweep(), EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
