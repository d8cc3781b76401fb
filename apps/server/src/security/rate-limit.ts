import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/**
 * Fixed-window rate limiting kept in the database, so every instance behind a load balancer sees
 * the same counters (DESIGN.md section 1: nothing that matters lives in process memory).
 */
export interface RateLimitResult {
  allowed: boolean;
  /** Hits counted in the current window, including this one. */
  count: number;
  /** Seconds until the window resets; send as `Retry-After` when not allowed. */
  retryAfterSeconds: number;
}

export async function hitRateLimit(
  /** A database, or `{kysely: trx}` to count inside a caller's transaction. */
  db: Pick<Db, 'kysely'>,
  key: string,
  options: { limit: number; windowSeconds: number; now?: number },
): Promise<RateLimitResult> {
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  const windowStart = nowSeconds - (nowSeconds % options.windowSeconds);
  // One statement on both databases: a new window resets the count, the same window adds one.
  const row = await db.kysely
    .insertInto('rate_limits')
    .values({ key, window_start: windowStart, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.window_start = ${windowStart} then rate_limits.count + 1 else 1 end`,
        window_start: windowStart,
      }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  const count = Number(row.count);
  return {
    allowed: count <= options.limit,
    count,
    retryAfterSeconds: Math.max(1, windowStart + options.windowSeconds - nowSeconds),
  };
}

/** Forgets a key's counter (after a successful sign-in, for example); `{kysely: trx}` works too. */
export async function resetRateLimit(db: Pick<Db, 'kysely'>, key: string) {
  await db.kysely.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** Forgets every counter whose key starts with `prefix` (a deleted user's). */
export async function resetRateLimitsStartingWith(db: Pick<Db, 'kysely'>, prefix: string) {
  await db.kysely
    .deleteFrom('rate_limits')
    .where(sql<string>`substr(key, 1, ${prefix.length})`, '=', prefix)
    .execute();
}

/** No limit's window is longer than this; older counters are only history. */
const RATE_LIMIT_RETENTION_SECONDS = 24 * 60 * 60;

/** Deletes counters whose window ended long ago (keys include client addresses, so they pile up). */
export async function sweepRateLimits(db: Db, now = Date.now()) {
  await db.kysely
    .deleteFrom('rate_limits')
    .where('window_start', '<', Math.floor(now / 1000) - RATE_LIMIT_RETENTION_SECONDS)
    .execute();
}
