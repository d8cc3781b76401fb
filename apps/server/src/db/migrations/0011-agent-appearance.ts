import type { Kysely } from 'kysely';
import type { VersionedMigration } from './versioned-migration.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * An agent's icon (an emoji, or `avatar:<style>` for a generated avatar) and colour (a palette
 * name), so people tell their agents apart at a glance. Both nullable: existing agents keep the
 * default look until someone picks one.
 */
export const agentAppearance: VersionedMigration = () => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('agents').addColumn('icon', 'text').execute();
    await db.schema.alterTable('agents').addColumn('color', 'text').execute();
  },
});
