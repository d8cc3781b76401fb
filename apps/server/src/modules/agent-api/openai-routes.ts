import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  chatCompletionRequestSchema,
  MAX_ID,
  chatCompletionSchema,
  openAiErrorSchema,
  openAiModelListSchema,
  type ChatCompletionRequest,
} from '@cadre/contract';
import type { ApiAgents } from './ports.ts';
import { ValidationFailure } from '../../http/errors.ts';
import { disconnectSignal } from '../../http/disconnect.ts';
import type { ApiRunInput, ChatService } from '../chat/index.ts';
import { keyAllows, reachableAgent } from './access.ts';
import { continuationOf, startAsk, type AskOutcome } from './ask.ts';
import { modelNotFound, OpenAiFailure, openAiErrorBody, openAiErrorHandler } from './openai-errors.ts';

export interface AgentApiOptions {
  chat: ChatService;
  agents: ApiAgents;
  publicUrl: string;
  /** How long an approval the answer asks for can be decided (CHAT_APPROVAL_TTL_SECONDS). */
  approvalMinutes: number;
  /** 429 once the caller used the month's token budget (the usage module). */
  checkBudget(userId: number): Promise<void>;
}

const errors = {
  400: openAiErrorSchema,
  401: openAiErrorSchema,
  403: openAiErrorSchema,
  404: openAiErrorSchema,
  409: openAiErrorSchema,
  429: openAiErrorSchema,
};

/** The caller's messages as the conversation the agent continues; the last must be the user's. */
function conversation(body: ChatCompletionRequest): ApiRunInput['messages'] {
  const messages = body.messages.map((m, i) => {
    const text = typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text).join('\n');
    if (m.role !== 'assistant' && !text.trim()) {
      throw new ValidationFailure([
        { loc: ['body', 'messages', i, 'content'], msg: 'is empty', type: 'value_error' },
      ]);
    }
    return { role: m.role === 'assistant' ? ('assistant' as const) : ('user' as const), text };
  });
  if (messages.at(-1)?.role !== 'user') {
    throw new ValidationFailure([
      {
        loc: ['body', 'messages', messages.length - 1, 'role'],
        msg: 'the last message must be the user’s (or a system or developer message)',
        type: 'value_error',
      },
    ]);
  }
  return messages.filter((m) => m.text.trim());
}

const finishReason = (outcome: AskOutcome): 'length' | 'stop' =>
  outcome.failure?.category === 'limit' ? 'length' : 'stop';

/**
 * A failure that ends the answer without one (the model could not be reached or refused, the run
 * was stopped, a write was refused): its category is the error code, which gives the status.
 */
function failureError(outcome: AskOutcome): OpenAiFailure | undefined {
  if (!outcome.failure || outcome.failure.category === 'limit') return undefined;
  return new OpenAiFailure(outcome.failure.category, outcome.failure.message);
}

/**
 * The OpenAI-compatible API (docs/api.md): an agent is a "model" whose id is the agent's id, and a
 * chat completion runs that agent as the chat does (its guidelines, its tools with the caller's
 * connections, approvals in Cadre). Streams as OpenAI's server-sent `chat.completion.chunk`s.
 */
export const openAiRoutes: FastifyPluginAsyncZod<AgentApiOptions> = async (app, options) => {
  const { chat, agents, publicUrl, approvalMinutes } = options;
  app.setErrorHandler(openAiErrorHandler);
  const tags = ['openai'];

  app.get(
    '/models',
    {
      config: { apiKeyScope: ['agents:read', 'chat'] },
      schema: {
        operationId: 'openAiListModels',
        tags,
        summary: "Lists the caller's agents (those an API key is limited to) as OpenAI models",
        response: { 200: openAiModelListSchema, ...errors },
      },
    },
    async (request) => {
      const owner = request.user.email ?? request.user.name ?? `user-${request.user.id}`;
      const data = (await agents.summaries(request.user.id))
        .filter((a) => keyAllows(request, a.id))
        .map((a) => ({
          id: String(a.id),
          object: 'model' as const,
          created: Math.floor(Date.parse(a.createdAt) / 1000),
          owned_by: owner,
          name: a.name,
          description: a.description,
        }));
      return { object: 'list' as const, data };
    },
  );

  app.post(
    '/chat/completions',
    {
      config: { apiKeyScope: 'chat' },
      bodyLimit: 2 * 1024 * 1024,
      schema: {
        operationId: 'openAiChatCompletion',
        tags,
        summary:
          'Runs an agent (`model` = agent id) on the conversation; `stream: true` answers with SSE chunks',
        body: chatCompletionRequestSchema,
        response: { 200: chatCompletionSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const agentId = /^\d{1,10}$/.test(String(body.model)) ? Number(body.model) : undefined;
      const agent =
        agentId === undefined || agentId > MAX_ID
          ? undefined
          : await reachableAgent(agents, request, agentId);
      if (!agent) throw modelNotFound(body.model);
      const messages = conversation(body);
      const ask = await startAsk(chat, {
        userId: request.user.id,
        agent,
        messages,
        continues: continuationOf(agent.id, messages),
        origin: 'api',
        signal: disconnectSignal(reply),
        publicUrl,
        approvalMinutes,
      });
      const id = `chatcmpl-${ask.threadId}`;
      const created = Math.floor(Date.now() / 1000);
      const model = String(agentId);
      reply.header('x-cadre-thread-id', ask.threadId);

      if (!body.stream) {
        let content = '';
        const outcome = await ask.answer((text) => (content += text));
        // The thread keeps whatever was answered before the failure.
        const failed = failureError(outcome);
        if (failed) throw failed;
        if (outcome.failure?.category === 'limit')
          content += `${content ? '\n\n' : ''}${outcome.failure.message}`;
        return {
          id,
          object: 'chat.completion' as const,
          created,
          model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant' as const, content, refusal: null },
              finish_reason: finishReason(outcome),
              logprobs: null,
            },
          ],
          usage: outcome.usage,
        };
      }

      const out = new PassThrough();
      // A client that went away closed the stream; the run stops on its own (disconnectSignal).
      const send = (data: unknown) => {
        if (!out.destroyed) out.write(`data: ${JSON.stringify(data)}\n\n`);
      };
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        send({
          id,
          object: 'chat.completion.chunk',
          created,
          model,
          choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
        });
      void (async () => {
        chunk({ role: 'assistant', content: '' });
        try {
          const outcome = await ask.answer((text) => chunk({ content: text }));
          const failed = failureError(outcome);
          if (failed) {
            send({ error: openAiErrorBody(failed.code, failed.detail) });
          } else {
            if (outcome.failure) chunk({ content: `\n\n${outcome.failure.message}` });
            chunk({}, finishReason(outcome));
            if (body.stream_options?.include_usage) {
              send({
                id,
                object: 'chat.completion.chunk',
                created,
                model,
                choices: [],
                usage: outcome.usage,
              });
            }
          }
        } catch (err) {
          request.log.warn({ err }, 'OpenAI-compatible stream failed');
          send({ error: openAiErrorBody('internal_error', 'The agent failed while answering.') });
        }
        if (!out.destroyed) out.end('data: [DONE]\n\n');
      })();
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-accel-buffering', 'no')
        .send(out as never);
    },
  );
};
