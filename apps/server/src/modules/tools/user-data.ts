import type { Db } from '../../db/database.ts';
import { deleteUserRows, selectUserRows } from '../../db/user-rows.ts';
import type { UserDataOwner } from '../../deps.ts';

/**
 * What the tools layer keeps about a user (P1): their own services (custom MCP servers) with their
 * actions, their connections (never the sealed credentials), pending OAuth states, and the notes
 * and calendar entries of the built-in services.
 */
export function toolsUserData(db: Db): UserDataOwner {
  const k = db.kysely;
  return {
    name: 'tools',

    async exportFor(user) {
      const [services, connections, notes, calendar] = await Promise.all([
        k
          .selectFrom('services')
          .select(['id', 'provider', 'name', 'description', 'created_at'])
          .where('owner_user_id', '=', user.id)
          .orderBy('id')
          .execute(),
        // Never the credentials column: the export is shown and downloaded in the browser.
        selectUserRows(k, 'connections', user.id)
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
          .execute(),
        selectUserRows(k, 'notes', user.id)
          .select(['id', 'title', 'body', 'created_at', 'updated_at'])
          .orderBy('id')
          .execute(),
        selectUserRows(k, 'calendar_events', user.id)
          .select([
            'id',
            'title',
            'description',
            'location',
            'starts_at',
            'ends_at',
            'created_at',
            'updated_at',
          ])
          .orderBy('starts_at')
          .execute(),
      ]);
      return { services, connections, notes, calendar_events: calendar };
    },

    /** Runs after the agents' share, so no agent of the user still has one of these actions. */
    async deleteFor(user, trx) {
      const ownServiceIds = trx.selectFrom('services').select('id').where('owner_user_id', '=', user.id);
      await deleteUserRows(trx, user.id, ['oauth_states', 'connections']);
      // Other users' connections to the user's own services go with those services.
      await trx.deleteFrom('connections').where('service_id', 'in', ownServiceIds).execute();
      await trx.deleteFrom('actions').where('service_id', 'in', ownServiceIds).execute();
      await trx.deleteFrom('services').where('owner_user_id', '=', user.id).execute();
      await deleteUserRows(trx, user.id, ['notes', 'calendar_events']);
    },
  };
}
