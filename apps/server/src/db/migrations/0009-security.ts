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
 */
export const security: VersionedMigration = () => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('oauth_states').addColumn('binding_hash', 'text').execute();
    await db.schema.alterTable('users').addColumn('admitted_at', 'text').execute();
    await db
      .updateTable('users')
      .set({ admitted_at: sql`created_at` })
      .execute();
  },
});
