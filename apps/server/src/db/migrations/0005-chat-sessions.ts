import type { Kysely } from 'kysely';
import type { VersionedMigration } from './versioned-migration.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Chat service sessions (the `/chainlit` cookie). The cookie holds a random value; only its SHA-256
 * is stored, so a database read does not yield usable sessions, and deleting the row revokes it.
 */
export const chatSessions: VersionedMigration = () => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('chat_sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('chat_sessions_user_idx').on('chat_sessions').column('user_id').execute();
  },
});
