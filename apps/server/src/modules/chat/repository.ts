import { sql, type Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import type { Database } from '../../db/schema.ts';
import { messageReads } from './message-reads.ts';
import type { StoredMessage } from './runtime/messages.ts';

/**
 * Chat persistence of threads and messages (sessions and approvals have their own repositories).
 * Every query that reads or writes a user's row carries the owner (`user_id`) in its WHERE clause;
 * messages are reached only through a thread the caller owns.
 */

const nowIso = () => new Date().toISOString();

/** `text` as a LIKE pattern that matches it literally anywhere (with `ESCAPE '\\'`). */

export interface ThreadRow {
  id: string;
  user_id: number;
  agent_id: number;
  name: string;
  origin: string;
  created_at: string;
  updated_at: string;
}

/** A thread to create: `endUser` is the embedding site's visitor it belongs to, '' for the owner. */
export interface NewThread {
  userId: number;
  agentId: number;
  endUser: string;
  name: string;
  origin?: string;
}

export function createChatRepository(db: Db) {
  const k = db.kysely;
  /** The thread's id if the user owns it, else nothing: a write through it touches no row. */
  const ownedThread = (userId: number, threadId: string) =>
    k.selectFrom('threads').select('id').where('id', '=', threadId).where('user_id', '=', userId);
  /**
   * A turn's new rows in one transaction (one commit: on SQLite every commit is a blocking fsync
   * before the first token): the thread when it is new, then the messages.
   */
  const insertTurn = async (
    threadId: string,
    newThread: NewThread | undefined,
    messages: StoredMessage[],
    /**
     * Runs in the same transaction once the rows are written (rate limit, audit, the run's claim
     * on the thread), with the new thread when there is one; throwing rolls everything back.
     */
    within?: (trx: Kysely<Database>, thread?: ThreadRow) => Promise<void>,
  ): Promise<ThreadRow | undefined> => {
    const at = nowIso();
    const thread: ThreadRow | undefined = newThread && {
      id: threadId,
      user_id: newThread.userId,
      agent_id: newThread.agentId,
      name: newThread.name,
      origin: newThread.origin ?? 'chat',
      created_at: at,
      updated_at: at,
    };
    await k.transaction().execute(async (trx) => {
      if (thread)
        await trx
          .insertInto('threads')
          .values({ ...thread, end_user: newThread!.endUser, metadata: '{}' })
          .execute();
      if (messages.length > 0)
        await trx
          .insertInto('messages')
          .values(
            messages.map((message) => ({
              id: message.id,
              thread_id: threadId,
              role: message.role,
              parts: JSON.stringify(message.parts),
              status: message.status,
              created_at: message.createdAt,
              model: message.model ?? null,
            })),
          )
          .execute();
      await within?.(trx, thread);
    });
    return thread;
  };

  return {
    // ---- threads

    /**
     * The threads, newest first: the latest 200, or with `page` the `page.limit` after the thread
     * `page.after` (keyset on (updated_at, id)) and whether more come after them.
     */
    async listThreads(
      userId: number,
      agentId: number,
      endUser: string,
      page?: { limit: number; after?: string },
    ): Promise<{ threads: ThreadRow[]; more: boolean }> {
      let query = k
        .selectFrom('threads')
        .select(['id', 'user_id', 'agent_id', 'name', 'origin', 'created_at', 'updated_at'])
        .where((eb) => eb.and({ user_id: userId, agent_id: agentId, end_user: endUser }));
      if (page?.after !== undefined) {
        const anchor = sql<string>`(select anchor.updated_at from threads as anchor where anchor.id = ${page.after})`;
        query = query.where((eb) =>
          eb.or([
            eb('updated_at', '<', anchor),
            eb.and([eb('updated_at', '=', anchor), eb('id', '>', page.after!)]),
          ]),
        );
      }
      const limit = page?.limit ?? 200;
      const rows = await query
        .orderBy('updated_at', 'desc')
        .orderBy('id')
        .limit(page ? limit + 1 : limit)
        .execute();
      return { threads: rows.slice(0, limit), more: rows.length > limit };
    },

    /**
     * The user's threads with the agent whose name or the text of a message holds `query`, ignoring
     * case (LIKE on SQLite, ILIKE on PostgreSQL), newest first and at most `limit`. Only the text
     * parts are searched, never the stored JSON around them (its keys would match every thread).
     */
    async searchThreads(
      userId: number,
      agentId: number,
      endUser: string,
      query: string,
      limit: number,
    ): Promise<ThreadRow[]> {
      const pattern = containsPattern(query);
      const nameMatches = sql<boolean>`threads.name ${sql.raw(db.dialect === 'sqlite' ? 'like' : 'ilike')} ${pattern} escape '\\'`;
      const textMatches =
        db.dialect === 'sqlite'
          ? sql<boolean>`exists (select 1 from json_each(messages.parts) as part
              where json_extract(part.value, '$.type') = 'text'
                and json_extract(part.value, '$.text') like ${pattern} escape '\\')`
          : sql<boolean>`exists (select 1 from jsonb_array_elements(messages.parts::jsonb) as part
              where part->>'type' = 'text' and part->>'text' ilike ${pattern} escape '\\')`;
      return k
        .selectFrom('threads')
        .select(['id', 'user_id', 'agent_id', 'name', 'origin', 'created_at', 'updated_at'])
        .where((eb) => eb.and({ user_id: userId, agent_id: agentId, end_user: endUser }))
        .where((eb) =>
          eb.or([
            nameMatches,
            eb.exists(
              eb
                .selectFrom('messages')
                .select('messages.id')
                .whereRef('messages.thread_id', '=', 'threads.id')
                .where(textMatches),
            ),
          ]),
        )
        .orderBy('updated_at', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /** `endUser`: the embedding site's visitor the thread belongs to, '' for the owner's own. */
    async findThread(
      userId: number,
      agentId: number,
      threadId: string,
      endUser: string,
    ): Promise<ThreadRow | undefined> {
      return k
        .selectFrom('threads')
        .select(['id', 'user_id', 'agent_id', 'name', 'origin', 'created_at', 'updated_at'])
        .where((eb) => eb.and({ id: threadId, user_id: userId, agent_id: agentId, end_user: endUser }))
        .executeTakeFirst();
    },

    /** Whether a thread id is taken by anyone (client-chosen ids must not collide). */
    async threadIdExists(threadId: string): Promise<boolean> {
      const row = await k.selectFrom('threads').select('id').where('id', '=', threadId).executeTakeFirst();
      return row !== undefined;
    },

    /** A thread with no messages yet (a turn's first message creates its thread with `insertTurn`). */
    async createThread(
      row: NewThread & { id: string },
      within?: (trx: Kysely<Database>, thread: ThreadRow) => Promise<void>,
    ): Promise<ThreadRow> {
      return (await insertTurn(row.id, row, [], within && ((trx, thread) => within(trx, thread!))))!;
    },

    async renameThread(
      userId: number,
      agentId: number,
      endUser: string,
      threadId: string,
      name: string,
    ): Promise<boolean> {
      const result = await k
        .updateTable('threads')
        .set({ name, updated_at: nowIso() })
        .where((eb) => eb.and({ id: threadId, user_id: userId, agent_id: agentId, end_user: endUser }))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The run's last save and the thread's `updated_at`, in one commit. */
    async finishRun(
      userId: number,
      threadId: string,
      message: Pick<StoredMessage, 'id' | 'parts' | 'status'>,
      /** Runs in the same transaction (the run's audit events). */
      within?: (trx: Kysely<Database>) => Promise<void>,
    ) {
      await k.transaction().execute(async (trx) => {
        await within?.(trx);
        const touched = await trx
          .updateTable('threads')
          .set({ updated_at: nowIso() })
          .where('id', '=', threadId)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (Number(touched.numUpdatedRows) !== 1) return;
        await trx
          .updateTable('messages')
          .set({ parts: JSON.stringify(message.parts), status: message.status })
          .where('id', '=', message.id)
          .where('thread_id', '=', threadId)
          .execute();
      });
    },

    async deleteThread(userId: number, agentId: number, endUser: string, threadId: string): Promise<boolean> {
      const result = await k
        .deleteFrom('threads')
        .where((eb) => eb.and({ id: threadId, user_id: userId, agent_id: agentId, end_user: endUser }))
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    // ---- messages (always through an owned thread)

    ...messageReads(k),

    insertTurn,

    /** Whether a message id is taken by anyone (client-chosen ids must not collide). */
    async messageIdExists(messageId: string): Promise<boolean> {
      const row = await k.selectFrom('messages').select('id').where('id', '=', messageId).executeTakeFirst();
      return row !== undefined;
    },

    async updateMessage(
      userId: number,
      threadId: string,
      message: Pick<StoredMessage, 'id' | 'parts' | 'status'>,
    ) {
      await k
        .updateTable('messages')
        .set({ parts: JSON.stringify(message.parts), status: message.status })
        .where('id', '=', message.id)
        .where('thread_id', 'in', ownedThread(userId, threadId))
        .execute();
    },

    async deleteMessages(userId: number, threadId: string, ids: string[]) {
      if (ids.length === 0) return;
      await k
        .deleteFrom('messages')
        .where('thread_id', 'in', ownedThread(userId, threadId))
        .where('id', 'in', ids)
        .execute();
    },
  };
}

export type ChatRepository = ReturnType<typeof createChatRepository>;
