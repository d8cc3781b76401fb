import type { Db } from '../../db/database.ts';
import { deleteUserRows, selectUserRows } from '../../db/user-rows.ts';
import type { UserDataOwner } from '../../kernel.ts';

/**
 * The demos' own rows (P1): a visitor's session and their copy of the writable sample data. Only
 * demo users (issuer urn:cadre:demo, never named by an access token) have any, and their users go
 * with their sessions; this keeps deletion complete for any user all the same.
 */
export function demosUserData(db: Db): UserDataOwner {
  return {
    name: 'demos',
    async exportFor(user) {
      const sessions = await selectUserRows(db.kysely, 'demo_sessions', user.id)
        .select(['agent_id', 'created_at', 'expires_at'])
        .execute();
      return { sessions: sessions.map((s) => ({ kind: 'demo' as const, ...s })) };
    },
    async deleteFor(user, trx) {
      await deleteUserRows(trx, user.id, [
        'demo_sessions',
        'demo_orders',
        'demo_refunds',
        'demo_tickets',
        'demo_activities',
        'demo_researched_leads',
      ]);
    },
  };
}
