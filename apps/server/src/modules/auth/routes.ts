import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { copilotLoginSchema, errorSchema } from '@cadre/contract';
import type { AppDeps } from '../../app.ts';
import { issueCopilotToken } from './copilot-token.ts';

export const authRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { config }) => {
  app.post(
    '/api/v1/auth/chainlit-copilot-login',
    {
      schema: {
        operationId: 'chainlitCopilotLogin',
        tags: ['auth'],
        summary: 'A short-lived token the chat frame accepts for the signed-in user',
        response: { 200: copilotLoginSchema, 401: errorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { copilot_auth_token: await issueCopilotToken(config, request.user.id) };
    },
  );
};
