import type { Db } from '../../db/database.ts';
import type { UserDataOwner } from '../../deps.ts';

/** The trigger events stored for the user's agents (P1). */
export function triggersUserData(db: Db): UserDataOwner {
  return {
    name: 'triggers',
    async exportFor(user) {
      const events = await db.kysely
        .selectFrom('trigger_events')
        .select(['id', 'agent_id', 'trigger_id', 'status', 'created_at'])
        .where('user_id', '=', user.id)
        .orderBy('id')
        .execute();
      return { trigger_events: events };
    },
    async deleteFor(user, trx) {
      await trx.deleteFrom('trigger_events').where('user_id', '=', user.id).execute();
    },
  };
}
