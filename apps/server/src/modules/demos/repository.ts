import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { INITIAL_ACTIVITIES } from './data/crm.ts';
import { INITIAL_REFUNDED_CENTS, ORDERS } from './data/shop.ts';

/**
 * SQL of the demos' own tables. Demo users own every row here; each query names the owner.
 * Deleting a demo user removes its sessions and demo data (ON DELETE CASCADE).
 */

export function createDemoRepository(db: Db) {
  const k = db.kysely;
  return {
    /**
     * One transaction: `createOwner` makes the visitor's user and agent (through the modules that
     * own them, joining this transaction), then the session and the visitor's copy of the writable
     * data are stored. A failure anywhere leaves nothing behind.
     */
    async createSession(
      input: { idHash: string; demo: string; clientKey: string; now: Date; expiresAt: Date },
      createOwner: (trx: Kysely<Database>) => Promise<{ userId: number; agentId: number }>,
    ): Promise<{ userId: number; agentId: number }> {
      const at = input.now.toISOString();
      return k.transaction().execute(async (tx) => {
        const owner = await createOwner(tx);
        await tx
          .insertInto('demo_sessions')
          .values({
            id_hash: input.idHash,
            user_id: owner.userId,
            agent_id: owner.agentId,
            demo: input.demo,
            client_key: input.clientKey,
            created_at: at,
            last_seen_at: at,
            expires_at: input.expiresAt.toISOString(),
          })
          .execute();
        if (input.demo === 'customerservicedemo') {
          await tx
            .insertInto('demo_orders')
            .values(
              ORDERS.map((o) => ({
                user_id: owner.userId,
                order_id: o.id,
                status: o.status,
                refunded_cents: INITIAL_REFUNDED_CENTS[o.id] ?? 0,
                updated_at: at,
              })),
            )
            .execute();
        }
        if (input.demo === 'salesoutreachdemo') {
          await tx
            .insertInto('demo_activities')
            .values(
              INITIAL_ACTIVITIES.map((a) => ({
                user_id: owner.userId,
                id: a.id,
                lead_id: a.leadId,
                type: a.type,
                notes: a.notes,
                created_at: a.createdAt,
              })),
            )
            .execute();
        }
        return owner;
      });
    },

    async findSession(idHash: string) {
      return k
        .selectFrom('demo_sessions')
        .select(['user_id', 'agent_id', 'demo', 'last_seen_at', 'expires_at'])
        .where('id_hash', '=', idHash)
        .executeTakeFirst();
    },

    /** The session of a demo user (each has exactly one). */
    async findSessionOfUser(userId: number) {
      return k
        .selectFrom('demo_sessions')
        .select(['agent_id', 'demo'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    async touchSession(idHash: string, at: string) {
      await k.updateTable('demo_sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
    },

    /** The demo users whose session went idle before `idleBefore` or ended before `now`. */
    async expiredUsers(idleBefore: string, now: string): Promise<number[]> {
      const rows = await k
        .selectFrom('demo_sessions')
        .select('user_id')
        .where((eb) => eb.or([eb('last_seen_at', '<', idleBefore), eb('expires_at', '<=', now)]))
        .execute();
      return [...new Set(rows.map((r) => r.user_id))];
    },

    // ---- the demo tools' writable data (always for one demo user)

    async orderStates(userId: number, orderIds?: string[]) {
      let query = k
        .selectFrom('demo_orders')
        .select(['order_id', 'status', 'refunded_cents'])
        .where('user_id', '=', userId);
      if (orderIds) {
        if (orderIds.length === 0) return [];
        query = query.where('order_id', 'in', orderIds);
      }
      return query.execute();
    },

    async refundsFor(userId: number, orderId: string) {
      return k
        .selectFrom('demo_refunds')
        .select(['id', 'amount_cents', 'reason', 'created_at'])
        .where('user_id', '=', userId)
        .where('order_id', '=', orderId)
        .orderBy('created_at')
        .execute();
    },

    /** Records a refund and updates the order in one transaction; false when the order changed meanwhile. */
    async recordRefund(input: {
      userId: number;
      orderId: string;
      expectedRefundedCents: number;
      amountCents: number;
      newStatus: string;
      reason: string;
      at: string;
    }): Promise<string | undefined> {
      return k.transaction().execute(async (tx) => {
        const updated = await tx
          .updateTable('demo_orders')
          .set({
            status: input.newStatus,
            refunded_cents: input.expectedRefundedCents + input.amountCents,
            updated_at: input.at,
          })
          .where('user_id', '=', input.userId)
          .where('order_id', '=', input.orderId)
          .where('refunded_cents', '=', input.expectedRefundedCents)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) return undefined;
        const count = await tx
          .selectFrom('demo_refunds')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', input.userId)
          .executeTakeFirstOrThrow();
        const id = `RF-${7001 + Number(count.n)}`;
        await tx
          .insertInto('demo_refunds')
          .values({
            user_id: input.userId,
            id,
            order_id: input.orderId,
            amount_cents: input.amountCents,
            reason: input.reason,
            created_at: input.at,
          })
          .execute();
        return id;
      });
    },

    async createTicket(input: {
      userId: number;
      subject: string;
      orderId: string | null;
      customerEmail: string | null;
      priority: string;
      at: string;
    }): Promise<string> {
      return k.transaction().execute(async (tx) => {
        const count = await tx
          .selectFrom('demo_tickets')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', input.userId)
          .executeTakeFirstOrThrow();
        const id = `TCK-${3101 + Number(count.n)}`;
        await tx
          .insertInto('demo_tickets')
          .values({
            user_id: input.userId,
            id,
            subject: input.subject,
            order_id: input.orderId,
            customer_email: input.customerEmail,
            priority: input.priority,
            status: 'open',
            created_at: input.at,
          })
          .execute();
        return id;
      });
    },

    async ticketsFor(userId: number, orderId: string) {
      return k
        .selectFrom('demo_tickets')
        .select(['id', 'subject', 'priority', 'status', 'created_at'])
        .where('user_id', '=', userId)
        .where('order_id', '=', orderId)
        .orderBy('created_at')
        .execute();
    },

    async activitiesFor(userId: number, leadId: string) {
      return k
        .selectFrom('demo_activities')
        .select(['id', 'type', 'notes', 'created_at'])
        .where('user_id', '=', userId)
        .where('lead_id', '=', leadId)
        .orderBy('created_at', 'desc')
        .execute();
    },

    async lastActivities(userId: number) {
      return k
        .selectFrom('demo_activities')
        .select(['lead_id'])
        .select((eb) => eb.fn.max('created_at').as('last'))
        .where('user_id', '=', userId)
        .groupBy('lead_id')
        .execute();
    },

    async logActivity(input: { userId: number; leadId: string; type: string; notes: string; at: string }) {
      return k.transaction().execute(async (tx) => {
        const count = await tx
          .selectFrom('demo_activities')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', input.userId)
          .executeTakeFirstOrThrow();
        const id = `ACT-${9001 + Number(count.n)}`;
        await tx
          .insertInto('demo_activities')
          .values({
            user_id: input.userId,
            id,
            lead_id: input.leadId,
            type: input.type,
            notes: input.notes,
            created_at: input.at,
          })
          .execute();
        return id;
      });
    },
  };
}

export type DemoRepository = ReturnType<typeof createDemoRepository>;
