import etag from '@fastify/etag';
import type { FastifyInstance } from 'fastify';

/**
 * Registers `routes` in a scope whose answers carry an ETag and `Cache-Control: private, no-cache`,
 * and answer 304 without a body when the request's If-None-Match names the current one: a list that
 * did not change costs the client no transfer and no parsing. No cache on our side: the body is
 * still built from the database (it is what gets hashed), so an ETag is never stale.
 */
export async function withEtags<App extends FastifyInstance>(app: App, routes: (scope: App) => void) {
  await app.register(async (scope) => {
    // The default hash (SHA-1, native): FNV-1a is deprecated in the plugin.
    await scope.register(etag);
    scope.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'private, no-cache');
    });
    routes(scope as App);
  });
}

/**
 * Whether an If-None-Match header names `etag` (RFC 9110 13.1.2: a list of entity tags, or `*`,
 * compared weakly, so `W/"x"` and `"x"` match).
 */
export function ifNoneMatchNames(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === opaque;
  });
}
