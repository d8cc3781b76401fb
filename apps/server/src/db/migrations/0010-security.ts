import { sql, type Kysely } from 'kysely';
import type { VersionedMigration } from './versioned-migration.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Security fixes of issue 15:
 * - `oauth_states.binding_hash`: SHA-256 of the random value the starting browser keeps in a
 *   cookie; the provider's callback completes a connection only in that browser (I1). States
 *   stored before this migration have none and are refused (they expire within 10 minutes).
 * - `users.admitted_at`: when the user passed the beta access-code gate; the API refuses users
 *   who never did. Everyone signed up before this migration came through the gate in the
 *   browser, so they count as admitted when they were created.
 * - `chat_sessions.revoked_at` and `chat_revocations`: sign-out ends the user's chat sessions (the
 *   row stays, revoked, until it expires) and every copilot token issued before it (A4).
 */
export const security: VersionedMigration = () => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('oauth_states').addColumn('binding_hash', 'text').execute();
    await db.schema.alterTable('users').addColumn('admitted_at', 'text').execute();
    await db
      .updateTable('users')
      .set({ admitted_at: sql`created_at` })
      .execute();
    await db.schema.alterTable('chat_sessions').addColumn('revoked_at', 'text').execute();
    await db.schema
      .createTable('chat_revocations')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('revoked_at', 'text', (c) => c.notNull())
      .execute();
  },
});
