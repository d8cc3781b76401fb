import type { Insertable, Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { selectUserRows } from '../../db/user-rows.ts';
import { INITIAL_ACTIVITIES } from './data/crm.ts';
import { INITIAL_REFUNDED_CENTS, ORDERS } from './data/shop.ts';

/**
 * SQL of the demos' own tables. Demo users own every row here; each query names the owner.
 * Deleting a demo user removes its sessions and demo data (ON DELETE CASCADE).
 */

type NumberedTable = 'demo_refunds' | 'demo_tickets' | 'demo_activities';

/**
 * Stores one of the visitor's numbered records (RF-7001, TCK-3101, ACT-9001, …): the number is
 * `first` plus how many the visitor already has, so every visitor's copy counts from the same start.
 */
async function insertNumbered<T extends NumberedTable>(
  tx: Kysely<Database>,
  table: T,
  prefix: string,
  first: number,
  values: Omit<Insertable<Database[T]>, 'id'> & { user_id: number },
): Promise<string> {
  // Kysely cannot narrow a table chosen by a type parameter: the queries run on the union.
  const count = await tx
    .selectFrom(table as NumberedTable)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', values.user_id)
    .executeTakeFirstOrThrow();
  const id = `${prefix}-${first + Number(count.n)}`;
  await tx
    .insertInto(table as NumberedTable)
    .values({ ...values, id } as never)
    .execute();
  return id;
}

/** Each demo's writable sample data, copied for a new visitor (the rest is read-only and shared). */
const SAMPLE_DATA: Partial<
  Record<string, (tx: Kysely<Database>, userId: number, at: string) => Promise<unknown>>
> = {
  customerservicedemo: (tx, userId, at) =>
    tx
      .insertInto('demo_orders')
      .values(
        ORDERS.map(({ id, status }) => ({
          user_id: userId,
          order_id: id,
          status,
          refunded_cents: INITIAL_REFUNDED_CENTS[id] ?? 0,
          updated_at: at,
        })),
      )
      .execute(),
  salesoutreachdemo: (tx, userId) =>
    tx
      .insertInto('demo_activities')
      .values(
        INITIAL_ACTIVITIES.map(({ leadId, createdAt, ...activity }) => ({
          ...activity,
          user_id: userId,
          lead_id: leadId,
          created_at: createdAt,
        })),
      )
      .execute(),
};

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
        await SAMPLE_DATA[input.demo]?.(tx, owner.userId, at);
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

    /** An order's refunds and support tickets, oldest first: what the visitor did about it. */
    async orderHistory(userId: number, orderId: string) {
      const [refunds, tickets] = await Promise.all([
        selectUserRows(k, 'demo_refunds', userId)
          .select(['id', 'amount_cents', 'reason', 'created_at'])
          .where('order_id', '=', orderId)
          .orderBy('created_at')
          .execute(),
        selectUserRows(k, 'demo_tickets', userId)
          .select(['id', 'subject', 'priority', 'status', 'created_at'])
          .where('order_id', '=', orderId)
          .orderBy('created_at')
          .execute(),
      ]);
      return { refunds, tickets };
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
        return insertNumbered(tx, 'demo_refunds', 'RF', 7001, {
          user_id: input.userId,
          order_id: input.orderId,
          amount_cents: input.amountCents,
          reason: input.reason,
          created_at: input.at,
        });
      });
    },

    /** Opens a support ticket (TCK-3101, …) for the visitor. */
    async createTicket(row: Omit<Insertable<Database['demo_tickets']>, 'id' | 'status'>): Promise<string> {
      return k
        .transaction()
        .execute((tx) => insertNumbered(tx, 'demo_tickets', 'TCK', 3101, { ...row, status: 'open' }));
    },

    async activitiesFor(userId: number, leadId: string) {
      return selectUserRows(k, 'demo_activities', userId)
        .select(['id', 'type', 'notes', 'created_at'])
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

    /** Records that the visitor researched a lead (again: the first time stays). */
    async markResearched(userId: number, leadId: string, at: string) {
      await k
        .insertInto('demo_researched_leads')
        .values({ user_id: userId, lead_id: leadId, researched_at: at })
        .onConflict((oc) => oc.columns(['user_id', 'lead_id']).doNothing())
        .execute();
    },

    async wasResearched(userId: number, leadId: string): Promise<boolean> {
      const row = await selectUserRows(k, 'demo_researched_leads', userId)
        .select('lead_id')
        .where('lead_id', '=', leadId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Logs a sales activity (ACT-9001, …) against a lead. */
    async logActivity(row: Omit<Insertable<Database['demo_activities']>, 'id'>): Promise<string> {
      return k.transaction().execute((tx) => insertNumbered(tx, 'demo_activities', 'ACT', 9001, row));
    },
  };
}

export type DemoRepository = ReturnType<typeof createDemoRepository>;
