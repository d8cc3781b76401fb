import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  copilotLoginRequestSchema,
  copilotLoginSchema,
  errorSchema,
  validationErrorSchema,
} from '@cadre/contract';
import { notFound } from '../../http/errors.ts';
import type { AppDeps } from '../../deps.ts';
import { issueCopilotToken } from './copilot-token.ts';

export const authRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { config, agents }) => {
  app.post(
    '/api/v1/auth/chainlit-copilot-login',
    {
      schema: {
        operationId: 'chainlitCopilotLogin',
        tags: ['auth'],
        summary: 'A short-lived token the chat frame accepts for the signed-in user',
        body: copilotLoginRequestSchema,
        response: { 200: copilotLoginSchema, 401: errorSchema, 404: errorSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const agentId = request.body?.agent_id;
      if (agentId !== undefined && !(await agents.exists(request.user.id, agentId)))
        throw notFound('Agent not found');
      return { copilot_auth_token: await issueCopilotToken(config, request.user.id, agentId) };
    },
  );
};
