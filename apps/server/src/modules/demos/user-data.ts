import type { Db } from '../../db/database.ts';
import type { UserDataOwner } from '../../deps.ts';

/**
 * The demos' own rows (P1): a visitor's session and their copy of the writable sample data. Only
 * demo users (issuer urn:cadre:demo, never named by an access token) have any, and their users go
 * with their sessions; this keeps deletion complete for any user all the same.
 */
export function demosUserData(db: Db): UserDataOwner {
  return {
    name: 'demos',
    async exportFor(user) {
      const sessions = await db.kysely
        .selectFrom('demo_sessions')
        .select(['agent_id', 'created_at', 'expires_at'])
        .where('user_id', '=', user.id)
        .execute();
      return { sessions: sessions.map((s) => ({ kind: 'demo' as const, ...s })) };
    },
    async deleteFor(user, trx) {
      for (const table of [
        'demo_sessions',
        'demo_orders',
        'demo_refunds',
        'demo_tickets',
        'demo_activities',
      ] as const) {
        await trx.deleteFrom(table).where('user_id', '=', user.id).execute();
      }
    },
  };
}
