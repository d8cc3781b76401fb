import { Migrator, type MigrationProvider } from 'kysely';
import type { Db } from './database.ts';
import { initialSchema } from './migrations/0001-initial.ts';
import { agentToolsOrder } from './migrations/0002-agent-tools-order.ts';
import { identitySchema } from './migrations/0003-identity.ts';
import { toolsSchema } from './migrations/0004-tools.ts';
import { chatSessions } from './migrations/0005-chat-sessions.ts';
import { demos } from './migrations/0006-demos.ts';
import { reliability } from './migrations/0007-reliability.ts';
import { chatRuns } from './migrations/0008-chat-runs.ts';
import { agentVersions } from './migrations/0009-agent-versions.ts';
import { security } from './migrations/0010-security.ts';
import { agentAppearance } from './migrations/0011-agent-appearance.ts';
import { apiKeys } from './migrations/0012-api-keys.ts';
import { agentStarters } from './migrations/0013-agent-starters.ts';
import { messageFeedback } from './migrations/0014-message-feedback.ts';
import { toolPermissions } from './migrations/0017-tool-permissions.ts';
import type { VersionedMigration } from './migrations/versioned-migration.ts';

/**
 * Migrations are TypeScript functions listed here in order, so the bundled server carries them
 * with no files to find at run time.
 */
const migrations: Record<string, VersionedMigration> = {
  '0001-initial': initialSchema,
  '0002-agent-tools-order': agentToolsOrder,
  '0003-identity': identitySchema,
  '0004-tools': toolsSchema,
  '0005-chat-sessions': chatSessions,
  '0006-demos': demos,
  '0007-reliability': reliability,
  '0008-chat-runs': chatRuns,
  '0009-agent-versions': agentVersions,
  '0010-security': security,
  '0011-agent-appearance': agentAppearance,
  '0012-api-keys': apiKeys,
  '0013-agent-starters': agentStarters,
  '0014-message-feedback': messageFeedback,
  '0017-tool-permissions': toolPermissions,
};

/** Every migration, in the order it runs. */
export const MIGRATION_NAMES = Object.keys(migrations);

export async function migrateToLatest(db: Db): Promise<string[]> {
  const provider: MigrationProvider = {
    getMigrations: async () =>
      Object.fromEntries(Object.entries(migrations).map(([name, m]) => [name, m(db.dialect)])),
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
