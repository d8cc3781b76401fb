import type { Kysely } from 'kysely';
import type { VersionedMigration } from './versioned-migration.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * When a connection was last used by a tool call, and the last error such a call met (message and
 * time), so the services screen can say "Last used 5 minutes ago" and why the last call failed.
 * All nullable: existing connections read as never used.
 */
export const connectionUsage: VersionedMigration = () => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('connections').addColumn('last_used_at', 'text').execute();
    await db.schema.alterTable('connections').addColumn('last_error', 'text').execute();
    await db.schema.alterTable('connections').addColumn('last_error_at', 'text').execute();
  },
});
