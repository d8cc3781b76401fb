import type { Db } from '../../db/database.ts';
import { deleteUserRows, selectUserRows } from '../../db/user-rows.ts';
import type { UserDataOwner } from '../../kernel.ts';

/**
 * What the tools layer keeps about a user (P1): their own services (custom MCP servers) with their
 * actions, and the notes and calendar entries of the built-in services. (Their connections are the
 * services module's.)
 */
export function toolsUserData(db: Db): UserDataOwner {
  const k = db.kysely;
  return {
    name: 'tools',

    async exportFor(user) {
      const [services, notes, calendar] = await Promise.all([
        k
          .selectFrom('services')
          .select(['id', 'provider', 'name', 'description', 'created_at'])
          .where('owner_user_id', '=', user.id)
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
      return { services, notes, calendar_events: calendar };
    },

    /**
     * Runs after the agents' and services' shares, so no agent or connection of the user still
     * refers to these actions; other users' connections to the user's own services go with those
     * services (the foreign key cascades).
     */
    async deleteFor(user, trx) {
      const ownServiceIds = trx.selectFrom('services').select('id').where('owner_user_id', '=', user.id);
      await trx.deleteFrom('actions').where('service_id', 'in', ownServiceIds).execute();
      await trx.deleteFrom('services').where('owner_user_id', '=', user.id).execute();
      await deleteUserRows(trx, user.id, ['notes', 'calendar_events']);
    },
  };
}
