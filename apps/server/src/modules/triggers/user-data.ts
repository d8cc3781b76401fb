import type { Db } from '../../db/database.ts';
import { deleteUserRows, moveUserRows, selectUserRows } from '../../db/user-rows.ts';
import type { UserDataOwner } from '../../kernel.ts';
import { resetRateLimitsStartingWith } from '../../security/rate-limit.ts';
import { triggerRateKeyPrefix } from './service.ts';

/** The trigger events stored for the user's agents, and their agents' trigger secrets (P1). */
export function triggersUserData(db: Db): UserDataOwner {
  return {
    name: 'triggers',
    async exportFor(user) {
      const events = await selectUserRows(db.kysely, 'trigger_events', user.id)
        .select(['id', 'agent_id', 'trigger_id', 'status', 'created_at'])
        .orderBy('id')
        .execute();
      // That signed calls were on, never the secret.
      const secrets = await selectUserRows(db.kysely, 'trigger_secrets', user.id)
        .select(['agent_id', 'created_at'])
        .orderBy('agent_id')
        .execute();
      return { trigger_events: events, trigger_secrets: secrets };
    },
    async deleteFor(user, trx) {
      await deleteUserRows(trx, user.id, ['trigger_events', 'trigger_secrets']);
      await resetRateLimitsStartingWith({ kysely: trx }, triggerRateKeyPrefix(user.id));
    },

    async transferAgents(from, to, trx) {
      // An agent keeps its trigger secret, so the systems that call it keep working; events not
      // yet run were the old owner's and go with them.
      await moveUserRows(trx, from.id, to.id, ['trigger_secrets']);
    },
  };
}
