import type { Kysely } from 'kysely';
import type { VersionedMigration } from './versioned-migration.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * `agent_versions`: every save of an agent as a numbered snapshot (JSON text of its fields and
 * tools), with who saved it and when. Numbers count up per agent from 1; the owner's id is kept on
 * every row so each query is scoped to the owner, and the rows go with the agent or the user.
 */
export const agentVersions: VersionedMigration = () => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('agent_versions')
      .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
      .addColumn('number', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      // 'create' | 'update' | 'restore' | 'import' | 'duplicate' | 'baseline'
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('restored_from', 'integer')
      // Who saved it: their id, and their name or email at the time. Both null for a baseline, the
      // state found before the first recorded save.
      .addColumn('saved_by', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('author', 'text')
      .addColumn('snapshot', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('agent_versions_pk', ['agent_id', 'number'])
      .execute();
    await db.schema
      .createIndex('agent_versions_user_idx')
      .on('agent_versions')
      .columns(['user_id', 'agent_id'])
      .execute();
  },
});
