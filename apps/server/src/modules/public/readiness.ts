import type { Readiness } from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import { MIGRATION_NAMES, recordedMigrations } from '../../db/migrate.ts';
import type { Lifecycle } from '../../kernel.ts';

/** The probe's write counts as failed when the database has not answered within this time. */
export const READY_TIMEOUT_MS = 1_000;

type NotReady = NonNullable<Readiness['reason']>;
type DatabaseState = NonNullable<Readiness['database']>;

/** The instance cannot serve (`reason`), or can, with what its probe found of the database. */
export type ReadinessResult = { reason: NotReady } | { reason?: undefined; database: DatabaseState };

class ProbeTimeout extends Error {}

/**
 * Whether this instance can take traffic: not draining, and every migration this build knows has
 * been applied (checked once). The database is probed with a real write within a second each time,
 * but a failure there keeps an instance that has served ready: the database is shared, so every
 * instance would fail together and a load balancer would be left with no instance to answer, and
 * its clients with the balancer's own error page instead of Cadre's 503 `db_unavailable` with
 * Retry-After (docs/deployment.md, "When the database fails"). A probe the database leaves
 * unanswered tells the pool so (`db.reportUnanswered`): unless the database answered anything else
 * meanwhile, requests stop waiting for it.
 */
export function createReadinessCheck(db: Db, lifecycle: Lifecycle) {
  let migrationsDone = false;

  async function probe(): Promise<void> {
    if (!migrationsDone) {
      const names = await recordedMigrations(db);
      if (!MIGRATION_NAMES.every((name) => names.has(name))) throw new MigrationsPending();
      migrationsDone = true;
    }
    // A real write, committed: a full disk or a read-only database fails it.
    const now = new Date().toISOString();
    await db.kysely
      .insertInto('instances')
      .values({ id: lifecycle.instanceId, started_at: now, seen_at: now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: now }))
      .execute();
  }

  return async function check(): Promise<ReadinessResult> {
    if (lifecycle.draining) return { reason: 'draining' };
    const since = Date.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        probe(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new ProbeTimeout()), READY_TIMEOUT_MS);
        }),
      ]);
      return { database: 'ok' };
    } catch (err) {
      if (err instanceof ProbeTimeout) db.reportUnanswered(since);
      if (err instanceof MigrationsPending) return { reason: 'migrations_pending' };
      const database = stateOf(err);
      // Never reached: this instance cannot tell whether its schema is the one it needs.
      if (!migrationsDone) return { reason: `database_${database}` };
      return { database };
    } finally {
      clearTimeout(timer);
    }
  };
}

class MigrationsPending extends Error {}

function stateOf(err: unknown): Exclude<DatabaseState, 'ok'> {
  const code = String((err as { code?: unknown }).code ?? '');
  if (code === 'SQLITE_FULL' || code === '53100') return 'full';
  if (code.startsWith('SQLITE_READONLY') || code === '25006') return 'read_only';
  return 'unavailable';
}
