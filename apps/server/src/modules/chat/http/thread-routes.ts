import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  chatSessionInfoSchema,
  chatThreadCreateSchema,
  chatThreadListQuerySchema,
  chatThreadListSchema,
  chatThreadMessagesQuerySchema,
  chatThreadMessagesSchema,
  PAGE_LIMIT_MAX,
  chatThreadRenameSchema,
  chatThreadSchema,
  idempotentCreateHeadersSchema,
  type ChatThread,
} from '@cadre/contract';
import type { Db } from '../../../db/database.ts';
import { createOnce } from '../../../http/idempotency.ts';
import type { ChatService } from '../service.ts';
import { approvalOut, messageWithApprovalTimes, sessionOut, threadOut } from './dto.ts';
import { principalOf } from './session-auth.ts';
import { chatOperation } from './chat-operation.ts';

export const threadParams = z.object({ threadId: z.string().max(100) });

/** The page asked for, if any; a cursor without a limit pages with the most a page may hold. */
const pageOf = (limit: number | undefined, cursor: string | undefined) =>
  limit === undefined && cursor === undefined ? undefined : { limit: limit ?? PAGE_LIMIT_MAX, cursor };

/** The session's agent, its threads and their messages. */
export const threadRoutes: FastifyPluginAsyncZod<{ service: ChatService; db: Db }> = async (
  app,
  { service, db },
) => {
  app.get(
    '/session',
    chatOperation('chatSession', 'Who is signed in to this chat, and with which agent', {
      response: { 200: chatSessionInfoSchema },
    }),
    async (request) => {
      const principal = principalOf(request);
      return sessionOut(
        principal,
        await service.sessionInfo(principal.userId, principal.agentId, principal.via),
      );
    },
  );

  app.get(
    '/threads',
    chatOperation('chatListThreads', "Lists the signed-in person's threads with this agent, newest first", {
      querystring: chatThreadListQuerySchema,
      response: { 200: chatThreadListSchema },
    }),
    async (request) => {
      const { userId, agentId, endUser = '' } = principalOf(request);
      const { q, limit, cursor } = request.query;
      const page = pageOf(limit, cursor);
      const { threads, nextCursor } = await service.listThreads(
        userId,
        agentId,
        endUser,
        q,
        page && { limit: page.limit, after: page.cursor },
      );
      return { data: threads.map(threadOut), ...(nextCursor === undefined ? {} : { nextCursor }) };
    },
  );

  app.post(
    '/threads',
    chatOperation('chatCreateThread', 'Starts an empty thread', {
      headers: idempotentCreateHeadersSchema,
      body: chatThreadCreateSchema,
      response: { 201: chatThreadSchema },
    }),
    async (request, reply) => {
      const { userId, agentId, endUser = '' } = principalOf(request);
      // One owner's key space is shared by their agents and their sites' visitors: kept apart.
      return createOnce<ChatThread>(
        db,
        request,
        reply,
        { userId, status: 201, scope: `chat-thread:${agentId}:${endUser}` },
        async (record) =>
          threadOut(
            await service.createThread(
              userId,
              agentId,
              endUser,
              request.body?.name,
              record && ((trx, created) => record(trx, threadOut(created))),
            ),
          ),
      );
    },
  );

  app.patch(
    '/threads/:threadId',
    chatOperation('chatRenameThread', 'Renames a thread', {
      params: threadParams,
      body: chatThreadRenameSchema,
      response: { 200: chatThreadSchema },
    }),
    async (request) => {
      const { userId, agentId, endUser = '' } = principalOf(request);
      return threadOut(
        await service.renameThread(userId, agentId, endUser, request.params.threadId, request.body.name),
      );
    },
  );

  app.delete(
    '/threads/:threadId',
    chatOperation('chatDeleteThread', 'Deletes a thread and stops its run', {
      params: threadParams,
      response: { 204: z.null().describe('Deleted') },
    }),
    async (request, reply) => {
      const { userId, agentId, endUser = '' } = principalOf(request);
      await service.deleteThread(userId, agentId, endUser, request.params.threadId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/threads/:threadId/messages',
    chatOperation('chatThreadMessages', "A thread's messages, oldest first: all of them or a page", {
      params: threadParams,
      querystring: chatThreadMessagesQuerySchema,
      response: { 200: chatThreadMessagesSchema },
    }),
    async (request) => {
      const { userId, agentId, endUser = '' } = principalOf(request);
      const { limit, cursor } = request.query;
      const page = pageOf(limit, cursor);
      const { thread, messages, approvals, nextCursor } = await service.threadMessages(
        userId,
        agentId,
        endUser,
        request.params.threadId,
        page,
      );
      const byId = new Map(approvals.map((a) => [a.id, a]));
      const now = Date.now();
      return {
        thread: threadOut(thread),
        messages: messages.map((m) => messageWithApprovalTimes(m, byId, now)),
        approvals: approvals.map(approvalOut),
        ...(nextCursor === undefined ? {} : { nextCursor }),
      };
    },
  );
};
