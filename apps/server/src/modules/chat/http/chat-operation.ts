import type { FastifySchema } from 'fastify';

/**
 * A chat route's options: public to the API-token check (the chat authenticates with its own
 * session or copilot token), and described for the contract tests but hidden from the OpenAPI
 * document, under the `chat` tag.
 */
export const chatOperation = <S extends FastifySchema>(operationId: string, schema: S) => ({
  config: { public: true },
  schema: { hide: true, operationId, tags: ['chat'], ...schema },
});
