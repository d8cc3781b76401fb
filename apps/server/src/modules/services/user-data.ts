import type { Db } from '../../db/database.ts';
import { deleteUserRows, selectUserRows } from '../../db/user-rows.ts';
import type { UserDataOwner } from '../../kernel.ts';

/** The user's connections to services (never the sealed credentials) and pending OAuth states (P1). */
export function servicesUserData(db: Db): UserDataOwner {
  const k = db.kysely;
  return {
    name: 'services',

    async exportFor(user) {
      // Never the credentials column: the export is shown and downloaded in the browser.
      const connections = await selectUserRows(k, 'connections', user.id)
        .select([
          'id',
          'service_id',
          'status',
          'created_at',
          'updated_at',
          'last_used_at',
          'last_error',
          'last_error_at',
        ])
        .orderBy('id')
        .execute();
      return { connections };
    },

    async deleteFor(user, trx) {
      await deleteUserRows(trx, user.id, ['oauth_states', 'connections']);
    },
  };
}
