import type { Db } from '../../db/database.ts';
import { deleteUserRows, selectUserRows } from '../../db/user-rows.ts';
import type { UserDataOwner } from '../../deps.ts';

/** The user's API keys, never their hash: the hash is what a key is checked against (P1). */
export function apiKeysUserData(db: Db): UserDataOwner {
  return {
    name: 'api-keys',

    async exportFor(user) {
      const keys = await selectUserRows(db.kysely, 'api_keys', user.id)
        .select(['id', 'name', 'prefix', 'scopes', 'agent_ids', 'expires_at', 'last_used_at', 'created_at'])
        .orderBy('id')
        .execute();
      return {
        api_keys: keys.map((key) => ({
          ...key,
          scopes: JSON.parse(key.scopes) as string[],
          agent_ids: key.agent_ids === null ? null : (JSON.parse(key.agent_ids) as number[]),
        })),
      };
    },

    async deleteFor(user, trx) {
      await deleteUserRows(trx, user.id, ['api_keys']);
    },
  };
}
