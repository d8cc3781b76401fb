import type { FastifySchema } from 'fastify';
import { errorSchema } from '@cadre/contract';

/**
 * A chat route's options: public to the API-token check (the chat authenticates with its own
 * session or copilot token, which the OpenAPI document states for its mount), under the `chat` tag.
 * Every chat route answers 401 `{detail}` without a session.
 */
export const chatOperation = <S extends FastifySchema>(operationId: string, summary: string, schema: S) => ({
  config: { public: true },
  schema: {
    operationId,
    tags: ['chat'],
    summary,
    ...schema,
    // Typed as the route's own responses, so a handler's replies are checked against those only.
    ...({ response: { 401: errorSchema, ...(schema.response as object | undefined) } } as Pick<
      S,
      'response'
    >),
  },
});
