import type { Db } from '../../db/database.ts';
import type { ActionDefinition, ServiceDefinition } from '../tools/provider.ts';
import { actionValues, serviceValues } from '../tools/repository.ts';
import { INITIAL_ACTIVITIES } from './data/crm.ts';
import { INITIAL_REFUNDED_CENTS, ORDERS } from './data/shop.ts';

/**
 * SQL of the demos. Demo users own every row here; each query names the owner. Deleting a demo
 * user removes its agent, service, actions, threads, sessions and demo data (ON DELETE CASCADE).
 */

export const DEMO_ISSUER = 'urn:cadre:demo';
export const DEMO_PROVIDER = 'demo';

export function createDemoRepository(db: Db) {
  const k = db.kysely;
  return {
    /** Creates the visitor's demo user, agent, service and actions, attaches the tools, stores the session. */
    async createDemoSession(input: {
      idHash: string;
      subject: string;
      demo: string;
      clientKey: string;
      agent: { name: string; description: string; guidelines: string };
      service: ServiceDefinition;
      actions: ActionDefinition[];
      now: Date;
      expiresAt: Date;
    }): Promise<{ userId: number; agentId: number }> {
      const at = input.now.toISOString();
      return k.transaction().execute(async (tx) => {
        const user = await tx
          .insertInto('users')
          .values({
            issuer: DEMO_ISSUER,
            subject: input.subject,
            email: null,
            name: 'Demo visitor',
            picture: null,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const agent = await tx
          .insertInto('agents')
          .values({
            user_id: user.id,
            ...input.agent,
            allow_unattended_writes: 0,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // The demo service is owned by the demo user: no real user ever sees or attaches it.
        const service = await tx
          .insertInto('services')
          .values({
            provider: DEMO_PROVIDER,
            provider_key: input.service.key,
            owner_user_id: user.id,
            created_at: at,
            ...serviceValues(input.service, at),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        let position = 0;
        for (const action of input.actions) {
          const row = await tx
            .insertInto('actions')
            .values({
              service_id: service.id,
              name: action.name,
              created_at: at,
              ...actionValues(action, at),
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await tx
            .insertInto('agent_tools')
            .values({ agent_id: agent.id, action_id: row.id, version: null, position: position++ })
            .execute();
        }
        await tx
          .insertInto('demo_sessions')
          .values({
            id_hash: input.idHash,
            user_id: user.id,
            agent_id: agent.id,
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
                user_id: user.id,
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
                user_id: user.id,
                id: a.id,
                lead_id: a.leadId,
                type: a.type,
                notes: a.notes,
                created_at: a.createdAt,
              })),
            )
            .execute();
        }
        return { userId: user.id, agentId: agent.id };
      });
    },

    async findSession(idHash: string) {
      return k
        .selectFrom('demo_sessions')
        .select(['user_id', 'agent_id', 'demo', 'last_seen_at', 'expires_at'])
        .where('id_hash', '=', idHash)
        .executeTakeFirst();
    },

    async findSessionByUser(userId: number, agentId: number) {
      return k
        .selectFrom('demo_sessions')
        .select(['demo'])
        .where('user_id', '=', userId)
        .where('agent_id', '=', agentId)
        .executeTakeFirst();
    },

    async touchSession(idHash: string, at: string) {
      await k.updateTable('demo_sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
    },

    /** Deletes the demo user of a session and everything it owns. */
    async deleteDemoUser(userId: number) {
      await k.deleteFrom('users').where('id', '=', userId).where('issuer', '=', DEMO_ISSUER).execute();
    },

    /** Deletes every demo user whose session went idle before `idleBefore` or ended before `now`. */
    async deleteExpired(idleBefore: string, now: string): Promise<number> {
      const expired = await k
        .selectFrom('demo_sessions')
        .select('user_id')
        .where((eb) => eb.or([eb('last_seen_at', '<', idleBefore), eb('expires_at', '<=', now)]))
        .execute();
      // Demo users left without a session (a crash between steps) go too.
      const orphans = await k
        .selectFrom('users')
        .leftJoin('demo_sessions', 'demo_sessions.user_id', 'users.id')
        .select('users.id as user_id')
        .where('users.issuer', '=', DEMO_ISSUER)
        .where('demo_sessions.id_hash', 'is', null)
        .execute();
      const ids = [...new Set([...expired, ...orphans].map((r) => r.user_id))];
      for (let i = 0; i < ids.length; i += 200) {
        await k
          .deleteFrom('users')
          .where('issuer', '=', DEMO_ISSUER)
          .where('id', 'in', ids.slice(i, i + 200))
          .execute();
      }
      return ids.length;
    },

    // ---- the demo tools' writable data (always for one demo user)

    async findDemoAction(userId: number, actionId: number) {
      return k
        .selectFrom('actions')
        .innerJoin('services', 'services.id', 'actions.service_id')
        .select(['actions.id', 'actions.name', 'services.provider_key'])
        .where('actions.id', '=', actionId)
        .where('services.provider', '=', DEMO_PROVIDER)
        .where('services.owner_user_id', '=', userId)
        .executeTakeFirst();
    },

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
