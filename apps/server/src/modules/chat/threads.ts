import { CHAT_SEARCH_LIMIT } from '@cadre/contract';
import { notFound } from '../../http/errors.ts';
import { requireAgent, requireThread, type ChatContext } from './context.ts';

/** A user's threads with one agent and their messages; every call names the owner. */
export function createThreads(ctx: ChatContext) {
  const { repo, audit } = ctx;
  return {
    /** All the threads, or with `query` those whose name or messages hold it. */
    async listThreads(userId: number, agentId: number, query?: string) {
      await requireAgent(ctx, userId, agentId);
      return query
        ? repo.searchThreads(userId, agentId, query, CHAT_SEARCH_LIMIT)
        : repo.listThreads(userId, agentId);
    },

    async createThread(userId: number, agentId: number, name?: string) {
      await requireAgent(ctx, userId, agentId);
      const thread = await repo.createThread({
        id: crypto.randomUUID(),
        userId,
        agentId,
        name: name?.trim() || 'New chat',
      });
      await audit.record({
        userId,
        action: 'chat.thread.created',
        objectType: 'thread',
        objectId: thread.id,
      });
      return thread;
    },

    async renameThread(userId: number, agentId: number, threadId: string, name: string) {
      if (!(await repo.renameThread(userId, agentId, threadId, name.trim())))
        throw notFound('Thread not found');
      return requireThread(ctx, userId, agentId, threadId);
    },

    /** Deletes the thread, stopping a run in it first. */
    async deleteThread(userId: number, agentId: number, threadId: string) {
      await ctx.runs.stop(userId, threadId, 'deleted');
      if (!(await repo.deleteThread(userId, agentId, threadId))) throw notFound('Thread not found');
      await audit.record({ userId, action: 'chat.thread.deleted', objectType: 'thread', objectId: threadId });
    },

    /** The thread, its messages (AI SDK UI messages) and its approvals. */
    async threadMessages(userId: number, agentId: number, threadId: string) {
      const thread = await requireThread(ctx, userId, agentId, threadId);
      const [messages, approvals] = await Promise.all([
        repo.listMessages(userId, threadId),
        ctx.approvals.list(userId, threadId),
      ]);
      return { thread, messages, approvals };
    },

    /** Stops this user's runs in the thread; whether there was one. */
    async stop(userId: number, agentId: number, threadId: string): Promise<boolean> {
      await requireThread(ctx, userId, agentId, threadId);
      return ctx.runs.stop(userId, threadId);
    },
  };
}
