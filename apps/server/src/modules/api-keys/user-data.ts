import type { Db } from '../../db/database.ts';
import type { UserDataOwner } from '../../kernel.ts';
import { createApiKeysRepository } from './repository.ts';

/** The user's API keys, never their hash: the hash is what a key is checked against (P1). */
export function apiKeysUserData(db: Db): UserDataOwner {
  const repo = createApiKeysRepository(db);
  return {
    name: 'api-keys',

    async exportFor(user) {
      // The list the keys page shows: the serializer puts the fields in the export schema's order.
      return { api_keys: await repo.list(user.id) };
    },

    async deleteFor(user, trx) {
      const deleted = await trx
        .deleteFrom('api_keys')
        .where('user_id', '=', user.id)
        .returning('hash')
        .execute();
      // As a revocation does: every instance drops the keys from its cache once the deletion commits.
      for (const { hash } of deleted) await db.signals.publish('cadre_api_key_revoked', hash, trx);
    },
  };
}
