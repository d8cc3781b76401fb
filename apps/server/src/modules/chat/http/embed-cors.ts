import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { normaliseOrigin } from '@cadre/contract';
import { HttpError } from '../../../http/errors.ts';
import type { SessionPrincipal } from '../sessions.ts';

/**
 * CORS for the copilot on other sites (docs/security.md, "Embedding"). A page answers only to the
 * origins its agent's owner listed (`embed_origins`), and only with a copilot token minted for that
 * very origin: the credential is the bearer token, never a cookie, so `Allow-Credentials` is never
 * sent and no origin ever gets `*`.
 */
export interface EmbedPolicy {
  /** Our own origin (PUBLIC_URL's): its requests are not cross-origin. */
  publicOrigin: string;
  /** The origins allowed to embed the user's agent. */
  embedOrigins(userId: number, agentId: number): Promise<string[]>;
  /** Whether any agent allows the origin: a preflight names no agent (nor carries the token). */
  anyAllowsEmbedOrigin(origin: string): Promise<boolean>;
}

const METHODS = 'GET, POST, PUT, PATCH, DELETE';
// The copilot sends an Idempotency-Key with each message (a proxy's retry must not store it twice).
const HEADERS = 'authorization, content-type, idempotency-key';
const EXPOSED = 'x-thread-id, retry-after';

/** The request's `Origin` when it is another site's (a well-formed origin that is not ours). */
function foreignOrigin(request: FastifyRequest, publicOrigin: string): string | undefined {
  const origin = request.headers.origin;
  if (origin === undefined || origin === publicOrigin) return undefined;
  return origin;
}

/** Answers preflights on every path of `app`: the CORS headers only for an allowed origin. */
export function registerEmbedPreflight(app: FastifyInstance, policy: EmbedPolicy) {
  app.options('/*', { schema: { hide: true } }, async (request, reply) => {
    reply.header('vary', 'Origin');
    const origin = foreignOrigin(request, policy.publicOrigin);
    if (origin && normaliseOrigin(origin) === origin && (await policy.anyAllowsEmbedOrigin(origin))) {
      reply
        .header('access-control-allow-origin', origin)
        .header('access-control-allow-methods', METHODS)
        .header('access-control-allow-headers', HEADERS)
        .header('access-control-max-age', '600');
    }
    return reply.code(204).send();
  });
}

/**
 * After authentication, for a copilot token bound to an origin (minted for an embedding site): it is
 * answered only from that origin, only while the origin is on its agent's list, and then with the
 * CORS headers that let the page read the answer. Nothing else ever gets CORS headers: cookie
 * requests from other sites keep their own rules (state changes refused by the CSRF check), and an
 * unbound token works as any bearer does, which a page of another site cannot read the answer of.
 */
export async function checkEmbedOrigin(
  request: FastifyRequest,
  reply: FastifyReply,
  principal: SessionPrincipal,
  policy: EmbedPolicy,
) {
  reply.header('vary', 'Origin');
  if (principal.origin === undefined) return;
  if (request.headers.origin !== principal.origin) {
    throw new HttpError('forbidden', 'This copilot token is for pages of another origin');
  }
  const origin = foreignOrigin(request, policy.publicOrigin);
  if (origin === undefined) return;
  if (!(await policy.embedOrigins(principal.userId, principal.agentId)).includes(origin)) {
    throw new HttpError('forbidden', 'This origin may no longer embed the agent');
  }
  reply.header('access-control-allow-origin', origin).header('access-control-expose-headers', EXPOSED);
}
