import type { Readiness } from '@cadre/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { MIGRATION_NAMES } from '../../db/migrate.ts';
import type { Lifecycle } from '../../kernel.ts';

/** Readiness fails when the database has not answered within this time. */
export const READY_TIMEOUT_MS = 1_000;

type NotReady = NonNullable<Readiness['reason']>;

class ProbeTimeout extends Error {}

/**
 * Whether this instance can take traffic: not draining, the database reads and writes within a
 * second, and every migration this build knows has been applied.
 */
export function createReadinessCheck(db: Db, lifecycle: Lifecycle) {
  let migrationsDone = false;

  async function probe(): Promise<void> {
    if (!migrationsDone) {
      // Kysely's migrator table, outside the Database type on purpose.
      const { rows } = await sql<{ name: string }>`select name from schema_migrations`.execute(db.kysely);
      const names = new Set(rows.map((row) => row.name));
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

  return async function check(): Promise<NotReady | undefined> {
    if (lifecycle.draining) return 'draining';
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        probe(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new ProbeTimeout()), READY_TIMEOUT_MS);
        }),
      ]);
      return undefined;
    } catch (err) {
      return reasonOf(err);
    } finally {
      clearTimeout(timer);
    }
  };
}

class MigrationsPending extends Error {}

function reasonOf(err: unknown): NotReady {
  if (err instanceof MigrationsPending) return 'migrations_pending';
  const code = String((err as { code?: unknown }).code ?? '');
  if (code === 'SQLITE_FULL' || code === '53100') return 'database_full';
  if (code.startsWith('SQLITE_READONLY') || code === '25006') return 'database_read_only';
  return 'database_unavailable';
}
