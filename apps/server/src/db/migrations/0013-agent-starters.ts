import type { Kysely } from 'kysely';
import type { VersionedMigration } from './versioned-migration.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * `agents.starters`: the prompts the owner offers in the empty chat, as a JSON array of strings.
 * Null for every agent saved before, which reads as no starters (the chat derives its own).
 */
export const agentStarters: VersionedMigration = () => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('agents').addColumn('starters', 'text').execute();
  },
});
