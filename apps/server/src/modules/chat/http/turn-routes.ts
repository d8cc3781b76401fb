import type { UIMessageChunk } from 'ai';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  chatApproveRequestSchema,
  chatDenyRequestSchema,
  chatStopResultSchema,
  chatTurnRequestSchema,
  idempotentCreateHeadersSchema,
} from '@cadre/contract';
import type { Db } from '../../../db/database.ts';
import { disconnectSignal } from '../../../http/disconnect.ts';
import { idempotencyFor } from '../../../http/idempotency.ts';
import { loadRuntime } from '../runs.ts';
import type { ChatService } from '../service.ts';
import type { SentTurn } from '../turns.ts';
import { turnOf } from './dto.ts';
import { principalOf, type ChatPrincipal } from './session-auth.ts';
import { threadParams } from './thread-routes.ts';
import { chatOperation } from './chat-operation.ts';
import { sseBody } from './sse-body.ts';

const approvalParams = z.object({ approvalId: z.string().max(100) });

/** Sends a UI message stream as server-sent events (`x-vercel-ai-ui-message-stream: v1`). */
async function sendStream(reply: FastifyReply, stream: ReadableStream<UIMessageChunk>, threadId: string) {
  const [{ UI_MESSAGE_STREAM_HEADERS }] = await loadRuntime();
  return reply.headers({ ...UI_MESSAGE_STREAM_HEADERS, 'x-thread-id': threadId }).send(sseBody(stream));
}

/** The host site's visitor a copilot token was minted for, told to the agent; none in the owner's chat. */
const visitorOf = ({ endUser, origin, visitorName }: ChatPrincipal) =>
  endUser ? { origin, name: visitorName } : undefined;

/** What a turn or a decision answers: a stream, never serialized as JSON. */
const answerStream = {
  200: z
    .unknown()
    .describe('The answer as an AI SDK UI message stream (text/event-stream); X-Thread-Id names its thread'),
};

/** A chat turn, Stop, and the decisions on pending tool calls; turns and decisions answer with a stream. */
export const turnRoutes: FastifyPluginAsyncZod<{ service: ChatService; db: Db }> = async (
  app,
  { service, db },
) => {
  app.post(
    '/chat',
    {
      bodyLimit: 2 * 1024 * 1024,
      ...chatOperation(
        'chatTurn',
        'Sends a message; the answer streams back (AI SDK UI message stream over SSE)',
        {
          description:
            'With `Idempotency-Key`, the same turn sent again stores nothing more: it answers 409 `run_in_progress` while the first answer is being written, then 409 `conflict` (the answer is in the thread).',
          headers: idempotentCreateHeadersSchema,
          body: chatTurnRequestSchema,
          response: answerStream,
        },
      ),
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { userId, agentId, endUser = '', via } = principal;
      // One owner's key space is shared by their agents and their sites' visitors: kept apart.
      const once = await idempotencyFor<SentTurn>(db, request, userId, 200, {
        scope: `chat-turn:${agentId}:${endUser}`,
      });
      if (once.replay) throw await service.alreadySent(once.replay.body as SentTurn);
      try {
        const { threadId, stream } = await service.startTurn({
          userId,
          agentId,
          endUser,
          ...turnOf(request.body),
          via,
          visitor: visitorOf(principal),
          record: once.record,
          signal: disconnectSignal(reply),
          rejoinable: true,
        });
        return sendStream(reply, stream, threadId);
      } catch (error) {
        // The same turn sent twice at once: the one whose key lost answers as a retry would.
        const winner = await once.winner();
        if (winner) throw await service.alreadySent(winner.body as SentTurn);
        throw error;
      }
    },
  );

  app.get(
    '/chat/:threadId/stream',
    chatOperation(
      'chatRejoin',
      "Rejoins the thread's answer still being written, on whichever instance it runs: the answer " +
        'from its first chunk, then live to its end (the AI SDK resume convention); 204 when none runs',
      {
        params: threadParams,
        response: { ...answerStream, 204: z.null().describe('No answer is being written in the thread') },
      },
    ),
    async (request, reply) => {
      const { userId, agentId, endUser = '' } = principalOf(request);
      const { threadId } = request.params;
      const stream = await service.rejoin(userId, agentId, endUser, threadId);
      if (!stream) return reply.code(204).send(null);
      return sendStream(reply, stream, threadId);
    },
  );

  app.post(
    '/threads/:threadId/stop',
    chatOperation('chatStop', "Stops the thread's answer, on whichever instance it runs", {
      params: threadParams,
      response: { 200: chatStopResultSchema },
    }),
    async (request) => {
      const { userId, agentId, endUser = '' } = principalOf(request);
      return service.stop(userId, agentId, endUser, request.params.threadId);
    },
  );

  for (const decision of ['approve', 'deny'] as const) {
    app.post(
      `/approvals/:approvalId/${decision}`,
      chatOperation(
        decision === 'approve' ? 'chatApprove' : 'chatDeny',
        decision === 'approve'
          ? 'Approves a pending tool call; the answer goes on as a stream'
          : 'Denies a pending tool call; the answer goes on as a stream',
        {
          params: approvalParams,
          body: (decision === 'approve' ? chatApproveRequestSchema : chatDenyRequestSchema).optional(),
          response: answerStream,
        },
      ),
      async (request, reply) => {
        const principal = principalOf(request);
        const { userId, agentId, endUser = '', via } = principal;
        const body = (request.body ?? {}) as {
          toolCallId?: string;
          args?: unknown;
          reason?: string;
          alwaysAllow?: boolean;
        };
        const { threadId, stream } = await service.decide({
          userId,
          agentId,
          endUser,
          approvalId: request.params.approvalId,
          decision,
          toolCallId: body.toolCallId,
          args: 'args' in body ? body.args : undefined,
          reason: body.reason,
          alwaysAllow: body.alwaysAllow,
          via,
          visitor: visitorOf(principal),
          signal: disconnectSignal(reply),
        });
        return sendStream(reply, stream, threadId);
      },
    );
  }
};
