import type { Kysely } from 'kysely';
import type { VersionedMigration } from './versioned-migration.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Security fixes of issue 15:
 * - `oauth_states.binding_hash`: SHA-256 of the random value the starting browser keeps in a
 *   cookie; the provider's callback completes a connection only in that browser (I1). States
 *   stored before this migration have none and are refused (they expire within 10 minutes).
 */
export const security: VersionedMigration = () => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('oauth_states').addColumn('binding_hash', 'text').execute();
  },
});
