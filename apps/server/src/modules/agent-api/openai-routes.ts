import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  chatCompletionRequestSchema,
  chatCompletionSchema,
  openAiErrorSchema,
  openAiModelListSchema,
  responseRequestSchema,
  responseSchema,
} from '@cadre/contract';
import { keyAllows } from './access.ts';
import type { AgentApiOptions } from './begin-ask.ts';
import { chatCompletion } from './chat-completions.ts';
import { modelIdOf } from './model-ids.ts';
import { openAiErrorHandler } from './openai-errors.ts';
import { createResponse } from './responses.ts';

export type { AgentApiOptions } from './begin-ask.ts';

const errors = {
  400: openAiErrorSchema,
  401: openAiErrorSchema,
  403: openAiErrorSchema,
  404: openAiErrorSchema,
  409: openAiErrorSchema,
  429: openAiErrorSchema,
};

/** Who `GET /models` says owns every model: the server, never a person (whose email it would leak). */
export const MODEL_OWNER = 'cadre';

/**
 * The OpenAI-compatible API (docs/api.md): an agent is a "model" whose id is a slug of its name and
 * id, and a chat completion or a response runs that agent as the chat does (its guidelines, its
 * tools with the caller's connections, approvals in Cadre), reporting the tool steps it took.
 */
export const openAiRoutes: FastifyPluginAsyncZod<AgentApiOptions> = async (app, options) => {
  const { agents } = options;
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
      const data = (await agents.summaries(request.user.id))
        .filter((a) => keyAllows(request, a.id))
        .map((a) => ({
          id: modelIdOf(a),
          object: 'model' as const,
          created: Math.floor(Date.parse(a.createdAt) / 1000),
          owned_by: MODEL_OWNER,
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
          'Runs an agent (`model` = its model id) on the conversation; `stream: true` answers with SSE chunks',
        body: chatCompletionRequestSchema,
        response: { 200: chatCompletionSchema, ...errors },
      },
    },
    (request, reply) => chatCompletion(options, request, reply, request.body),
  );

  app.post(
    '/responses',
    {
      config: { apiKeyScope: 'chat' },
      bodyLimit: 2 * 1024 * 1024,
      schema: {
        operationId: 'openAiCreateResponse',
        tags,
        summary:
          'Runs an agent (`model` = its model id) on the input; its tool calls are output items; `stream: true` answers with SSE events',
        body: responseRequestSchema,
        response: { 200: responseSchema, ...errors },
      },
    },
    (request, reply) => createResponse(options, request, reply, request.body),
  );
};
