import type { ChatFeedback } from '@cadre/contract';
import { notFound } from '../../http/errors.ts';
import type { ChatContext } from './context.ts';

/**
 * Thumbs up or down on an answer, with an optional comment. Only an assistant message in one of the
 * caller's threads with the session's agent can be rated; any other id is simply not found.
 */
export function createFeedback(ctx: ChatContext) {
  const k = ctx.db.kysely;
  const ownedAnswer = (userId: number, agentId: number, endUser: string, messageId: string) =>
    k
      .selectFrom('messages')
      .innerJoin('threads', 'threads.id', 'messages.thread_id')
      .select('messages.id')
      .where('messages.id', '=', messageId)
      .where('messages.role', '=', 'assistant')
      .where('threads.user_id', '=', userId)
      .where('threads.agent_id', '=', agentId)
      .where('threads.end_user', '=', endUser)
      .executeTakeFirst();

  return {
    async rateMessage(
      userId: number,
      agentId: number,
      endUser: string,
      messageId: string,
      rating: 'up' | 'down',
      comment: string | null,
    ): Promise<ChatFeedback> {
      if (!(await ownedAnswer(userId, agentId, endUser, messageId))) throw notFound('Message not found');
      const row = { rating, comment: comment || null, updated_at: new Date().toISOString() };
      await k
        .insertInto('message_feedback')
        .values({ message_id: messageId, user_id: userId, ...row })
        .onConflict((oc) => oc.column('message_id').doUpdateSet(row))
        .execute();
      return { messageId, rating, comment: row.comment, updatedAt: row.updated_at };
    },

    async clearRating(userId: number, agentId: number, endUser: string, messageId: string) {
      if (!(await ownedAnswer(userId, agentId, endUser, messageId))) throw notFound('Message not found');
      await k
        .deleteFrom('message_feedback')
        .where('message_id', '=', messageId)
        .where('user_id', '=', userId)
        .execute();
    },
  };
}
