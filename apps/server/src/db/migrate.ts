import { Migrator, sql, type MigrationProvider } from 'kysely';
import type { Db } from './database.ts';
import { declaredMigration } from './migrations/declared-migration.ts';

/**
 * Every migration, in the order it runs: each is `migrations/<name>.json`, schema history as data
 * that one interpreter (`declaredMigration`) turns into Kysely calls for either database. A new one
 * is a JSON file and a line here; a recorded name never changes, or databases would run it again.
 */
export const MIGRATION_NAMES = [
  '0001-initial',
  '0002-agent-tools-order',
  '0003-identity',
  '0004-tools',
  '0005-chat-sessions',
  '0006-demos',
  '0007-reliability',
  '0008-chat-runs',
  '0009-agent-versions',
  '0010-security',
  '0011-agent-appearance',
  '0012-api-keys',
  '0013-agent-starters',
  '0014-message-feedback',
  '0015-connection-usage',
  '0017-tool-permissions',
  '0018-message-model',
  '0019-trigger-secrets',
  '0020-copilot-embedding',
  '0021-agent-model',
  '0022-knowledge-files',
  '0023-knowledge-history',
  '0024-turn-usage',
  '0025-tool-execution-claims',
  '0028-agent-api-writes',
  '0029-demo-researched-leads',
  '0030-idp-session-logout',
  '0031-deleted-identities',
  '0032-run-streams',
  '0033-list-versions',
  '0034-roles',
  '0035-groups',
  '0036-access-codes',
  '0037-api-key-origins',
];

// A template import that esbuild bundles whole (every file it can match), so the built server
// carries the migrations with no files to find at run time.
const load = async (name: string): Promise<unknown> =>
  (await import(`./migrations/${name}.json`, { with: { type: 'json' } })).default;

/** The names of the migrations applied to the database (Kysely's table, outside the Database type). */
export async function recordedMigrations(db: Db): Promise<Set<string>> {
  const { rows } = await sql<{ name: string }>`select name from schema_migrations`.execute(db.kysely);
  return new Set(rows.map((row) => row.name));
}

/**
 * Whether every migration is recorded already (the usual start of all but the first instance of a
 * deploy): then there is nothing to take the migration lock for. Ten instances starting together
 * would otherwise queue for the lock one after another, each wait bounded by the statement timeout.
 */
async function upToDate(db: Db): Promise<boolean> {
  try {
    const recorded = await recordedMigrations(db);
    // Exactly ours: a migration this version does not know is left for the migrator to refuse.
    return recorded.size === MIGRATION_NAMES.length && MIGRATION_NAMES.every((name) => recorded.has(name));
  } catch {
    // No table yet (a new database): the migrator makes it.
    return false;
  }
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  if (await upToDate(db)) return [];
  const provider: MigrationProvider = {
    getMigrations: async () =>
      Object.fromEntries(
        await Promise.all(
          MIGRATION_NAMES.map(async (name) => [name, declaredMigration(name, await load(name), db.dialect)]),
        ),
      ),
  };
  const migrator = new Migrator({
    db: db.kysely,
    provider,
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
