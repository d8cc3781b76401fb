import type { Kysely } from 'kysely';
import type { VersionedMigration } from './versioned-migration.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * `message_feedback`: a person's thumbs up or down on an answer, with an optional comment; one per
 * message. It goes with the message (and so with its thread) and with the user.
 */
export const messageFeedback: VersionedMigration = () => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('message_feedback')
      .addColumn('message_id', 'text', (c) => c.primaryKey().references('messages.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      // 'up' | 'down'
      .addColumn('rating', 'text', (c) => c.notNull())
      .addColumn('comment', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('message_feedback_user_idx')
      .on('message_feedback')
      .column('user_id')
      .execute();
  },
});
