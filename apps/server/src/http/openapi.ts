import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const API_PREFIX = '/backend';
export const API_VERSION = '0.1.0';

/**
 * The OpenAPI document is generated from the route schemas. Paths are written relative to
 * `/backend` (the runtime configuration's `apiUrl`), which is how the generated client calls them.
 * Only API routes (and the OpenAI-compatible API) are documented; the identity provider, chat and
 * demo modules hide theirs.
 */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Cadre API',
        version: API_VERSION,
        description: 'The REST API behind the Cadre web app.',
      },
      servers: [{ url: API_PREFIX }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const url = input.url.startsWith(`${API_PREFIX}/`) ? input.url.slice(API_PREFIX.length) : input.url;
      const hidden = !['/api/', '/openai/'].some((part) => input.url.startsWith(`${API_PREFIX}${part}`));
      return {
        ...transformed,
        url,
        schema: { ...transformed.schema, hide: hidden || transformed.schema.hide },
      };
    },
  });
}

export function openApiDocument(app: FastifyInstance) {
  return app.swagger();
}

/**
 * The OpenAPI operation of a module's routes: `op(operationId, summary, schemas)` under the module's
 * tag, so each route states only what is its own.
 */
export function operations(tag: string) {
  return <S extends FastifySchema>(operationId: string, summary: string, schema: S) => ({
    schema: { operationId, tags: [tag], summary, ...schema },
  });
}
