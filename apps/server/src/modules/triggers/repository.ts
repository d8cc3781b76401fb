import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

/** Runs inside the insert's transaction (the audit record), so both commit or neither does. */
export type InTransaction = (trx: Kysely<Database>, id: number) => Promise<void>;

/** The `trigger_events` table: pending events, claimed by one worker at a time, then finished. */
export function createTriggerRepository(db: Db) {
  const k = db.kysely;
  return {
    /** A pending event; `record` is left out where nothing is audited (provider events). */
    insert(userId: number, agentId: number, triggerId: string, payload: string, record?: InTransaction) {
      return k.transaction().execute(async (trx) => {
        const now = new Date().toISOString();
        const { id } = await trx
          .insertInto('trigger_events')
          .values({
            user_id: userId,
            agent_id: agentId,
            trigger_id: triggerId,
            payload,
            status: 'pending',
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await record?.(trx, id);
        return id;
      });
    },

    /**
     * Claims the oldest pending event, or one left `running` since before `staleBefore`, with a
     * conditional UPDATE: undefined when there is none, null when another instance won the race.
     */
    async claimNext(staleBefore: string, now: string) {
      const candidate = await k
        .selectFrom('trigger_events')
        .select(['id', 'updated_at', 'status'])
        .where((eb) =>
          eb.or([
            eb('status', '=', 'pending'),
            eb.and([eb('status', '=', 'running'), eb('updated_at', '<', staleBefore)]),
          ]),
        )
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!candidate) return undefined;
      const claimed = await k
        .updateTable('trigger_events')
        .set({ status: 'running', updated_at: now })
        .where('id', '=', candidate.id)
        .where('status', '=', candidate.status)
        .where('updated_at', '=', candidate.updated_at)
        .returning(['id', 'user_id', 'agent_id', 'trigger_id', 'payload'])
        .executeTakeFirst();
      return claimed ?? null;
    },

    async finish(id: number, status: 'done' | 'failed', threadId: string | null, now: string) {
      await k
        .updateTable('trigger_events')
        .set({ status, thread_id: threadId, updated_at: now })
        .where('id', '=', id)
        .execute();
    },
  };
}

export type TriggerRepository = ReturnType<typeof createTriggerRepository>;
