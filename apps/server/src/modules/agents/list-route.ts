import { createHash } from 'node:crypto';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type Agent,
  agentListSchema,
  errorSchema,
  pageQuerySchema,
  validationErrorSchema,
} from '@cadre/contract';
import { keyAllows } from '../../http/auth.ts';
import { COMPRESSION_THRESHOLD_BYTES } from '../../http/compression.ts';
import { ifNoneMatchNames } from '../../http/etags.ts';
import { operations } from '../../http/openapi.ts';
import { nextPageLink } from '../../http/paging.ts';
import { LIST_ENCODINGS, listAnswerCache, type ListCacheLimits } from './list-answers.ts';
import type { AgentsService } from './service.ts';

const op = operations('agents');

/**
 * How many list answers an instance keeps, and in how many bytes (plain and compressed): about
 * 40 KB each for 20 agents of 5 tools, so some 800 such lists in 32 MiB. A list that is not kept
 * is built again from the database, as every list was before.
 */
export const LIST_CACHE_LIMITS: ListCacheLimits = { maxEntries: 10_000, maxBytes: 32 * 1024 * 1024 };

/** An API key limited to some agents sees only those; its answers are kept apart by that set. */
const limitTag = (agentIds: readonly number[] | null | undefined) =>
  agentIds
    ? `.${createHash('sha256')
        .update([...agentIds].sort((a, b) => a - b).join(','))
        .digest('base64url')
        .slice(0, 12)}`
    : '';

/**
 * GET /api/v1/agents/ (spec section 7), answered from memory (docs/architecture.md, "The agent list
 * from memory"). Its ETag is made of the user, the user's list version (db/list-versions.ts) and
 * this instance's list shape, so a matching If-None-Match is answered 304 after one primary-key
 * read, on any instance; otherwise the answer kept for that version goes out as bytes, compressed
 * once for each encoding asked for, and only a new version reads the list's tables. The ETag is
 * weak: the same list goes out plain or compressed.
 */
export const agentListRoute: FastifyPluginAsyncZod<{
  agents: AgentsService;
  limits?: ListCacheLimits;
}> = async (app, { agents, limits = LIST_CACHE_LIMITS }) => {
  const answers = listAnswerCache(limits);

  app.get(
    '/api/v1/agents/',
    {
      // Compressed here, once per version, instead of by @fastify/compress on every answer.
      compress: false,
      config: { apiKeyScope: 'agents:read' },
      ...op('listAgents', "The caller's agents with their tools, all of them or a page", {
        querystring: pageQuerySchema,
        response: { 200: agentListSchema, 401: errorSchema, 422: validationErrorSchema },
      }),
    },
    async (request, reply) => {
      const { limit, cursor } = request.query;
      const userId = request.user.id;
      const limitedTo = request.apiKey?.agentIds;
      // Read first: whatever is built below is at least as new as this version.
      const version = await agents.listVersion(userId);
      const tag = limitTag(limitedTo);
      const etag = `W/"${userId}.${version}.${agents.listShape}${tag}"`;
      reply
        .header('etag', etag)
        .header('cache-control', 'private, no-cache')
        .header('vary', 'accept-encoding');
      // Not in the route's schema (as no 304 of the API is): the answer has no body to describe.
      if (ifNoneMatchNames(request.headers['if-none-match'], etag))
        return (reply as FastifyReply).code(304).send();

      const answer = await answers.get(
        `${userId}${tag}?${limit ?? ''}&${cursor ?? ''}`,
        version,
        async () => {
          const page =
            limit === undefined && cursor === undefined
              ? { body: await agents.listJson(userId), nextAfter: null }
              : await agents.pageJson(userId, Number(cursor ?? 0), limit ?? Number.MAX_SAFE_INTEGER);
          // Re-serialized only for a limited key, so the database's text goes out as it is otherwise.
          if (limitedTo)
            page.body = JSON.stringify(
              (JSON.parse(page.body) as Agent[]).filter((a) => keyAllows(request.apiKey, a.id)),
            );
          return page;
        },
      );
      if (answer.nextAfter !== null && limit !== undefined)
        reply.header('link', nextPageLink(request.url, limit, answer.nextAfter));
      reply.type('application/json');
      const encoding =
        answer.body.length >= COMPRESSION_THRESHOLD_BYTES
          ? negotiate(request.headers['accept-encoding'] ?? '', [...LIST_ENCODINGS])
          : null;
      // Bytes go out as they are: the response schema describes the JSON they hold, which the tests
      // check against agentListSchema on both databases.
      if (!encoding) return reply.send(answer.body as unknown as Agent[]);
      return reply
        .header('content-encoding', encoding)
        .send((await answer.encoded(encoding)) as unknown as Agent[]);
    },
  );
};
