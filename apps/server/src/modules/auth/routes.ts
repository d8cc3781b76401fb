import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  copilotLoginRequestSchema,
  copilotLoginSchema,
  errorSchema,
  NO_SUCH_AGENT,
  validationErrorSchema,
} from '@cadre/contract';
import { notFound, ValidationFailure } from '../../http/errors.ts';
import type { Config } from '../../config.ts';
import { keyAllows } from '../../http/auth.ts';
import { operations } from '../../http/openapi.ts';
import { issueCopilotToken } from './copilot-token.ts';
import type { CopilotAgents } from './ports.ts';

const op = operations('auth');

export const authRoutes: FastifyPluginAsyncZod<{ config: Config; agents: CopilotAgents }> = async (
  app,
  { config, agents },
) => {
  app.post(
    '/api/v1/auth/chainlit-copilot-login',
    {
      config: { apiKeyScope: 'copilot:mint' },
      ...op(
        'chainlitCopilotLogin',
        'A short-lived token the chat frame accepts for the signed-in user and one of their agents',
        {
          body: copilotLoginRequestSchema,
          response: {
            200: copilotLoginSchema,
            401: errorSchema,
            403: errorSchema,
            404: errorSchema,
            422: validationErrorSchema,
          },
        },
      ),
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const agentId = request.body?.agent_id;
      if (agentId === undefined) {
        throw new ValidationFailure([{ loc: ['body', 'agent_id'], msg: 'is required', type: 'missing' }]);
      }
      const { origin, end_user: endUser } = request.body!;
      // A host backend mints for its visitors: each token speaks for one of them, never the owner.
      if (request.apiKey && !endUser) {
        throw new ValidationFailure([
          { loc: ['body', 'end_user'], msg: 'is required with an API key', type: 'missing' },
        ]);
      }
      // The same words as the chat's own sign-in: the agent is gone or not the caller's.
      if (!keyAllows(request.apiKey, agentId) || !(await agents.exists(request.user.id, agentId)))
        throw notFound(NO_SUCH_AGENT);
      const allowed = await agents.embedOrigins(request.user.id, agentId);
      if (origin !== undefined && !allowed.includes(origin)) {
        throw new ValidationFailure([
          {
            loc: ['body', 'origin'],
            msg: "is not one of the agent's allowed embed origins",
            type: 'origin_not_allowed',
          },
        ]);
      }
      // A host backend mints for pages of its own origin: where the owner listed origins, the token
      // is bound to one. With none listed, a key may mint unbound tokens, which no browser page of
      // another origin can use (no CORS answers them): for apps and servers, not web pages.
      if (request.apiKey && origin === undefined && allowed.length > 0) {
        throw new ValidationFailure([
          {
            loc: ['body', 'origin'],
            msg: 'is required with an API key when the agent lists allowed embed origins',
            type: 'missing',
          },
        ]);
      }
      const binding = {
        origin,
        endUser: endUser && { id: endUser.id, displayName: endUser.display_name || undefined },
      };
      return { copilot_auth_token: await issueCopilotToken(config, request.user.id, agentId, binding) };
    },
  );
};
