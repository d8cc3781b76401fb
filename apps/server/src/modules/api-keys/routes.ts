import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiKeyCreatedSchema,
  apiKeyCreateSchema,
  apiKeyListSchema,
  apiKeyParamsSchema,
  errorSchema,
  validationErrorSchema,
} from '@cadre/contract';
import { z } from 'zod';
import { operations } from '../../http/openapi.ts';
import type { ApiKeysService } from './service.ts';

const errors = { 401: errorSchema, 403: errorSchema, 422: validationErrorSchema };
const op = operations('api-keys');

/** The caller's personal API keys. Only a sign-in token manages keys: an API key cannot. */
export const apiKeysRoutes: FastifyPluginAsyncZod<{ apiKeys: ApiKeysService }> = async (app, { apiKeys }) => {
  app.get(
    '/api/v1/api-keys',
    op('listApiKeys', "The caller's API keys (never the keys themselves)", {
      response: { 200: apiKeyListSchema, 401: errorSchema, 403: errorSchema },
    }),
    async (request) => apiKeys.list(request.user.id),
  );

  app.post(
    '/api/v1/api-keys',
    op('createApiKey', 'Creates an API key; the answer is the only time the key is shown', {
      body: apiKeyCreateSchema,
      response: { 201: apiKeyCreatedSchema, ...errors },
    }),
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await apiKeys.create(request.user, request.body));
    },
  );

  app.delete(
    '/api/v1/api-keys/:api_key_id',
    op('revokeApiKey', 'Revokes one of the caller’s API keys at once', {
      params: apiKeyParamsSchema,
      response: { 204: z.null().describe('Revoked'), 404: errorSchema, ...errors },
    }),
    async (request, reply) => {
      await apiKeys.revoke(request.user, request.params.api_key_id);
      return reply.code(204).send(null);
    },
  );
};
