import { CHAT_SEARCH_LIMIT, type ChatStopResult } from '@cadre/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { requireAgent, requireThread, type ChatContext } from './context.ts';
import type { ThreadRow } from './repository.ts';

const stopDetails: Record<ChatStopResult['outcome'], string> = {
  stopped: 'Stopped; what the answer said so far is kept.',
  released:
    'The server writing this answer stopped responding; the answer was ended as interrupted with what it saved. ' +
    'You can send the next message now.',
  idle: 'Nothing was running in this thread.',
};

/**
 * A user's threads with one agent and their messages; every call names the owner, and `endUser`
 * the embedding site's visitor whose threads they are ('' for the owner's own).
 */
export function createThreads(ctx: ChatContext) {
  const { repo, audit } = ctx;
  return {
    /** All the threads, or with `query` those whose name or messages hold it. */
    /**
     * The newest threads, or a page of them (`nextCursor` then names the page after, null at the
     * end); with `query` those whose name or messages hold it, never paged.
     */
    async listThreads(
      userId: number,
      agentId: number,
      endUser: string,
      query?: string,
      page?: { limit: number; after?: string },
    ) {
      await requireAgent(ctx, userId, agentId);
      if (query)
        return { threads: await repo.searchThreads(userId, agentId, endUser, query, CHAT_SEARCH_LIMIT) };
      const { threads, more } = await repo.listThreads(userId, agentId, endUser, page);
      return { threads, nextCursor: page ? (more ? threads.at(-1)!.id : null) : undefined };
    },

    /** `within` runs in the thread's commit (the answer to an Idempotency-Key). */
    async createThread(
      userId: number,
      agentId: number,
      endUser: string,
      name?: string,
      within?: (trx: Kysely<Database>, thread: ThreadRow) => Promise<void>,
    ) {
      await requireAgent(ctx, userId, agentId);
      return repo.createThread(
        { id: crypto.randomUUID(), userId, agentId, endUser, name: name?.trim() || 'New chat' },
        async (trx, thread) => {
          await audit.record(
            { userId, action: 'chat.thread.created', objectType: 'thread', objectId: thread.id },
            trx,
          );
          await within?.(trx, thread);
        },
      );
    },

    async renameThread(userId: number, agentId: number, endUser: string, threadId: string, name: string) {
      if (!(await repo.renameThread(userId, agentId, endUser, threadId, name.trim())))
        throw notFound('Thread not found');
      return requireThread(ctx, userId, agentId, threadId, endUser);
    },

    /** Deletes the thread, stopping a run in it first. */
    async deleteThread(userId: number, agentId: number, endUser: string, threadId: string) {
      // Whose thread first: one visitor of a site must not stop another's run.
      await requireThread(ctx, userId, agentId, threadId, endUser);
      await ctx.runs.stop(userId, threadId, 'deleted');
      if (!(await repo.deleteThread(userId, agentId, endUser, threadId))) throw notFound('Thread not found');
      await audit.record({ userId, action: 'chat.thread.deleted', objectType: 'thread', objectId: threadId });
    },

    /**
     * The thread, its messages (AI SDK UI messages) and its approvals; with `page`, only the
     * newest `page.limit` messages before `page.cursor` and the cursor of the page before them.
     */
    async threadMessages(
      userId: number,
      agentId: number,
      endUser: string,
      threadId: string,
      page?: { limit: number; cursor?: string },
    ) {
      const thread = await requireThread(ctx, userId, agentId, threadId, endUser);
      const [{ messages: stored, nextCursor }, approvals] = await Promise.all([
        page
          ? repo.listMessagesPage(userId, threadId, page.limit, page.cursor)
          : repo.listMessages(userId, threadId).then((messages) => ({ messages, nextCursor: undefined })),
        ctx.approvals.list(userId, threadId),
      ]);
      // Each answer names its model as the model list does now (an id no longer offered stays an id).
      const messages = stored.map((m) => {
        const modelName = m.model ? ctx.models.nameOf(m.model) : undefined;
        return modelName ? { ...m, modelName } : m;
      });
      return { thread, messages, approvals, nextCursor };
    },

    /**
     * The thread's answer still being written, from its first chunk to its end (a reload or another
     * tab rejoining it); undefined when none is.
     */
    async rejoin(userId: number, agentId: number, endUser: string, threadId: string) {
      await requireThread(ctx, userId, agentId, threadId, endUser);
      const claimId = await ctx.runs.runningIn(threadId);
      if (!claimId) return undefined;
      return ctx.runs.streams.join(claimId, async () => (await ctx.runs.runningIn(threadId)) === claimId);
    },

    /** Stops this user's run in the thread; answers once the thread is free, saying what happened. */
    async stop(userId: number, agentId: number, endUser: string, threadId: string): Promise<ChatStopResult> {
      await requireThread(ctx, userId, agentId, threadId, endUser);
      const outcome = await ctx.runs.stop(userId, threadId);
      return { stopped: outcome !== 'idle', outcome, detail: stopDetails[outcome] };
    },
  };
}
