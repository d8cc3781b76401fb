import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiKeyCreatedSchema,
  apiKeyCreateSchema,
  apiKeyListSchema,
  apiKeyParamsSchema,
  apiKeySchema,
  apiKeyUpdateSchema,
  errorSchema,
  idempotentCreateHeadersSchema,
  validationErrorSchema,
  type ApiKeyCreated,
} from '@cadre/contract';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { createOnce } from '../../http/idempotency.ts';
import { operations } from '../../http/openapi.ts';
import type { Vault } from '../../security/vault.ts';
import type { ApiKeysService } from './service.ts';

const errors = { 401: errorSchema, 403: errorSchema, 422: validationErrorSchema };
const op = operations('api-keys');

/** The caller's personal API keys. Only a sign-in token manages keys: an API key cannot. */
export const apiKeysRoutes: FastifyPluginAsyncZod<{ apiKeys: ApiKeysService; db: Db; vault: Vault }> = async (
  app,
  { apiKeys, db, vault },
) => {
  app.get(
    '/api/v1/api-keys',
    op('listApiKeys', "The caller's API keys (never the keys themselves)", {
      response: { 200: apiKeyListSchema, 401: errorSchema, 403: errorSchema },
    }),
    async (request) => apiKeys.list(request.user.id),
  );

  app.post(
    '/api/v1/api-keys',
    {
      config: { permission: 'create_api_keys' },
      ...op('createApiKey', 'Creates an API key; the answer is the only time the key is shown', {
        description:
          'With `Idempotency-Key`, a retry gets the first answer, key included, for 24 hours: the stored answer keeps the key sealed by the vault.',
        headers: idempotentCreateHeadersSchema,
        body: apiKeyCreateSchema,
        response: { 201: apiKeyCreatedSchema, ...errors },
      }),
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return createOnce<ApiKeyCreated>(
        db,
        request,
        reply,
        { userId: request.user.id, status: 201, sealed: { vault, fields: ['key'] } },
        (record) => apiKeys.create(request.user, request.body, record),
      );
    },
  );

  app.patch(
    '/api/v1/api-keys/:api_key_id',
    {
      // Widening where a key may be used from is making a key do more: the creators' permission.
      config: { permission: 'create_api_keys' },
      ...op('updateApiKey', 'Sets the web origins one of the caller’s API keys may be used from (CORS)', {
        params: apiKeyParamsSchema,
        body: apiKeyUpdateSchema,
        response: { 200: apiKeySchema, 404: errorSchema, ...errors },
      }),
    },
    (request) => apiKeys.update(request.user, request.params.api_key_id, request.body),
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
