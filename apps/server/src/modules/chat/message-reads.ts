import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { StoredMessage, StoredPart } from './runtime/messages.ts';

/** A stored row as the runtime and the API see it. */
const storedMessage = (row: {
  id: string;
  role: string;
  parts: string;
  status: string;
  created_at: string;
  model: string | null;
}): StoredMessage => ({
  id: row.id,
  role: row.role as StoredMessage['role'],
  parts: JSON.parse(row.parts) as StoredPart[],
  status: row.status as StoredMessage['status'],
  createdAt: row.created_at,
  model: row.model,
});

/** A thread's messages, whole or a page, always through a thread the user owns. */
export function messageReads(k: Kysely<Database>) {
  /** A thread's messages, only through a thread the user owns; the caller orders them. */
  const ownedMessages = (userId: number, threadId: string) =>
    k
      .selectFrom('messages')
      .innerJoin('threads', 'threads.id', 'messages.thread_id')
      .select([
        'messages.id',
        'messages.role',
        'messages.parts',
        'messages.status',
        'messages.created_at',
        'messages.model',
      ])
      .where('messages.thread_id', '=', threadId)
      .where('threads.user_id', '=', userId);

  return {
    async listMessages(userId: number, threadId: string): Promise<StoredMessage[]> {
      const rows = await ownedMessages(userId, threadId)
        .orderBy('messages.created_at')
        .orderBy('messages.id')
        .execute();
      return rows.map(storedMessage);
    },

    /**
     * The newest `limit` messages older than `before` (its creation time and id; from the newest
     * without it), NEWEST FIRST, picked by the (thread_id, created_at) index: a thread read
     * backwards a page at a time, for as far back as the caller needs.
     */
    async listMessagesNewestFirst(
      userId: number,
      threadId: string,
      limit: number,
      before?: Pick<StoredMessage, 'createdAt' | 'id'>,
    ): Promise<StoredMessage[]> {
      let query = ownedMessages(userId, threadId);
      if (before !== undefined)
        query = query.where(
          sql<boolean>`(messages.created_at, messages.id) < (${before.createdAt}, ${before.id})`,
        );
      const rows = await query
        .orderBy('messages.created_at', 'desc')
        .orderBy('messages.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(storedMessage);
    },

    /**
     * The newest `limit` messages older than the message `beforeId` (from the newest without it),
     * oldest first, picked by the (thread_id, created_at) index; `nextCursor` names the oldest of
     * them when there are older ones still.
     */
    async listMessagesPage(userId: number, threadId: string, limit: number, beforeId?: string) {
      let query = ownedMessages(userId, threadId);
      if (beforeId !== undefined)
        query = query.where(
          sql<boolean>`(messages.created_at, messages.id) < (select anchor.created_at, anchor.id
            from messages as anchor where anchor.id = ${beforeId} and anchor.thread_id = ${threadId})`,
        );
      const rows = await query
        .orderBy('messages.created_at', 'desc')
        .orderBy('messages.id', 'desc')
        .limit(limit + 1)
        .execute();
      const messages = rows.slice(0, limit).reverse().map(storedMessage);
      return { messages, nextCursor: rows.length > limit ? messages[0]!.id : null };
    },
  };
}
