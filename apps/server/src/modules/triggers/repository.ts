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
     * Claims the oldest event that is pending, or running on an instance that stopped beating for
     * it before `staleBefore` (lost with a crash), for `instanceId`, counting the attempt. A
     * conditional UPDATE makes it one claim however many instances race: undefined when there is
     * nothing to run, null when another instance won. An orphan that already had `maxAttempts` runs
     * is failed instead of run again.
     */
    async claimNext(options: { instanceId: string; now: string; staleBefore: string; maxAttempts: number }) {
      const candidate = await k
        .selectFrom('trigger_events')
        .select(['id', 'updated_at', 'status', 'attempts'])
        .where((eb) =>
          eb.or([
            eb('status', '=', 'pending'),
            eb.and([eb('status', '=', 'running'), eb('heartbeat_at', '<', options.staleBefore)]),
          ]),
        )
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!candidate) return undefined;
      const matches = k
        .updateTable('trigger_events')
        .where('id', '=', candidate.id)
        .where('status', '=', candidate.status)
        .where('updated_at', '=', candidate.updated_at);
      if (candidate.status === 'running' && candidate.attempts >= options.maxAttempts) {
        await matches.set({ status: 'failed', instance_id: null, updated_at: options.now }).execute();
        return null;
      }
      const claimed = await matches
        .set((eb) => ({
          status: 'running',
          instance_id: options.instanceId,
          heartbeat_at: options.now,
          attempts: eb('attempts', '+', 1),
          updated_at: options.now,
        }))
        .returning(['id', 'user_id', 'agent_id', 'trigger_id', 'payload', 'thread_id', 'attempts'])
        .executeTakeFirst();
      return claimed ?? null;
    },

    /** The agent's latest events, newest first (the owner in the query, like every agent row). */
    recent(userId: number, agentId: number, limit: number) {
      return k
        .selectFrom('trigger_events')
        .select(['id', 'trigger_id', 'status', 'attempts', 'thread_id', 'created_at', 'updated_at'])
        .where('user_id', '=', userId)
        .where('agent_id', '=', agentId)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    /** The thread the event runs in, stored before it runs so a retry continues there. */
    async setThread(id: number, threadId: string) {
      await k.updateTable('trigger_events').set({ thread_id: threadId }).where('id', '=', id).execute();
    },

    /** Says this instance still runs the event. */
    async beat(id: number, instanceId: string, now: string) {
      await k
        .updateTable('trigger_events')
        .set({ heartbeat_at: now })
        .where('id', '=', id)
        .where('instance_id', '=', instanceId)
        .where('status', '=', 'running')
        .execute();
    },

    async finish(id: number, status: 'done' | 'failed', threadId: string | null, now: string) {
      await k
        .updateTable('trigger_events')
        .set({ status, thread_id: threadId, instance_id: null, updated_at: now })
        .where('id', '=', id)
        .execute();
    },

    /** Hands an event back (its run was cut by a shutdown): another instance runs it again at once. */
    async release(id: number, now: string) {
      await k
        .updateTable('trigger_events')
        .set((eb) => ({
          status: 'pending',
          instance_id: null,
          attempts: eb('attempts', '-', 1),
          updated_at: now,
        }))
        .where('id', '=', id)
        .where('status', '=', 'running')
        .execute();
    },
  };
}

export type TriggerRepository = ReturnType<typeof createTriggerRepository>;
