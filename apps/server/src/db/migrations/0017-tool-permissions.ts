import type { Kysely } from 'kysely';
import type { VersionedMigration } from './versioned-migration.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * `tool_permissions`: a person's "Allow without asking" for one write or send tool of one of their
 * agents (agents module). "Ask every time" is the absence of a row. It goes with the agent, the
 * action and the user; detaching the tool deletes it too (agents repository).
 */
export const toolPermissions: VersionedMigration = () => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('tool_permissions')
      .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
      .addColumn('action_id', 'integer', (c) => c.notNull().references('actions.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      // Where the choice was made: 'chat' (the approval card) or 'editor' (the agent editor).
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('tool_permissions_pk', ['agent_id', 'action_id'])
      .execute();
    await db.schema
      .createIndex('tool_permissions_user_idx')
      .on('tool_permissions')
      .column('user_id')
      .execute();
  },
});
