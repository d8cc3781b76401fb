import { sql, type Insertable, type Kysely, type RawBuilder } from 'kysely';
import type { UsageGroup } from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import type { Database, TurnUsageTable } from '../../db/schema.ts';

/** The counts of a group of runs, as the database sums them. */
export interface UsageCounts {
  turns: number;
  input_tokens: number;
  output_tokens: number;
  estimated: number;
  cost: number | null;
  tool_calls: number;
  errors: number;
}

export interface UsageGroupRow extends UsageCounts {
  day: string | null;
  agent_id: number | null;
  model: string | null;
}

/** The UTC day of an ISO timestamp (the same text function on both databases). */
const dayOf = sql<string>`substr(created_at, 1, 10)`;

/** The `turn_usage` table (usage module): one row per run, owner-scoped in every query. */
export function createUsageRepository(db: Db) {
  const counts = () =>
    [
      sql<number>`coalesce(sum(1 - continued), 0)`.as('turns'),
      sql<number>`coalesce(sum(input_tokens), 0)`.as('input_tokens'),
      sql<number>`coalesce(sum(output_tokens), 0)`.as('output_tokens'),
      sql<number>`coalesce(max(estimated), 0)`.as('estimated'),
      sql<number | null>`sum(cost)`.as('cost'),
      sql<number>`coalesce(sum(tool_calls), 0)`.as('tool_calls'),
      sql<number>`coalesce(sum(case when status = 'error' then 1 else 0 end), 0)`.as('errors'),
    ] as const;
  const within = (userId: number, from: string, until: string) =>
    db.kysely
      .selectFrom('turn_usage')
      .where('user_id', '=', userId)
      .where('created_at', '>=', from)
      .where('created_at', '<', until);

  return {
    async insert(row: Insertable<TurnUsageTable>, trx: Kysely<Database>) {
      await trx.insertInto('turn_usage').values(row).execute();
    },

    /** The user's input and output tokens since `since` (ISO). */
    async tokensSince(userId: number, since: string): Promise<number> {
      const row = await db.kysely
        .selectFrom('turn_usage')
        .select(sql<number>`coalesce(sum(input_tokens + output_tokens), 0)`.as('tokens'))
        .where('user_id', '=', userId)
        .where('created_at', '>=', since)
        .executeTakeFirst();
      return Number(row?.tokens ?? 0);
    },

    /** Sums per group over `[from, until)`, ordered by day, agent, model. */
    async groups(
      userId: number,
      from: string,
      until: string,
      groupBy: UsageGroup[],
    ): Promise<UsageGroupRow[]> {
      const by = new Set(groupBy);
      const keys: RawBuilder<unknown>[] = [];
      if (by.has('day')) keys.push(dayOf);
      if (by.has('agent')) keys.push(sql`agent_id`);
      if (by.has('model')) keys.push(sql`model`);
      const rows = await within(userId, from, until)
        .select([
          (by.has('day') ? dayOf : sql<string | null>`null`).as('day'),
          (by.has('agent') ? sql<number | null>`agent_id` : sql<number | null>`null`).as('agent_id'),
          (by.has('model') ? sql<string | null>`model` : sql<string | null>`null`).as('model'),
          ...counts(),
        ])
        .$call((q) => keys.reduce((grouped, key) => grouped.groupBy(key).orderBy(key), q))
        .execute();
      return rows.map((r) => ({ ...r, cost: r.cost === null ? null : Number(r.cost) }));
    },

    /** Sums over `[from, until)`. */
    async totals(userId: number, from: string, until: string): Promise<UsageCounts> {
      const row = await within(userId, from, until).select(counts()).executeTakeFirstOrThrow();
      return { ...row, cost: row.cost === null ? null : Number(row.cost) };
    },

    /** Tokens and cost per user over `[from, until)`, for these users (none: no query). */
    async totalsPerUser(userIds: number[], from: string, until: string) {
      if (userIds.length === 0) return [];
      return db.kysely
        .selectFrom('turn_usage')
        .select([
          'user_id',
          sql<number>`coalesce(sum(input_tokens + output_tokens), 0)`.as('tokens'),
          sql<number | null>`sum(cost)`.as('cost'),
        ])
        .where('user_id', 'in', userIds)
        .where('created_at', '>=', from)
        .where('created_at', '<', until)
        .groupBy('user_id')
        .execute();
    },

    /** Every row of the user, oldest first (their export). */
    list(userId: number) {
      return db.kysely
        .selectFrom('turn_usage')
        .select([
          'agent_id',
          'thread_id',
          'source',
          'model',
          'input_tokens',
          'output_tokens',
          'estimated',
          'cost',
          'tool_calls',
          'status',
          'continued',
          'created_at',
        ])
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
    },
  };
}

export type UsageRepository = ReturnType<typeof createUsageRepository>;
