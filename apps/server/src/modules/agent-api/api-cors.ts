import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { normaliseOrigin } from '@cadre/contract';
import { HttpError } from '../../http/errors.ts';

/**
 * CORS on the agent API (the OpenAI-compatible routes and the MCP servers; docs/security.md, "API
 * keys"): a page of another origin may call them only with an API key that lists that origin
 * (`allowed_origins`), each origin exactly (no wildcard). The key is a bearer header, never a
 * cookie, so `Allow-Credentials` is never sent and no origin ever gets `*`.
 */
export interface ApiCorsPolicy {
  /** Our own origin (PUBLIC_URL's): its requests are not cross-origin. */
  publicOrigin: string;
  /** Whether any API key lists the origin: a preflight carries no key to look at. */
  anyKeyAllowsOrigin(origin: string): Promise<boolean>;
}

const METHODS = 'GET, POST, DELETE';
const EXPOSED = 'x-cadre-thread-id, retry-after';
/** Request headers a preflight may ask for: a comma-separated list of header names, nothing else. */
const HEADER_LIST = /^[a-z0-9-]+(\s*,\s*[a-z0-9-]+)*$/i;

/** The request's `Origin` when it is another site's (not ours). */
function foreignOrigin(request: FastifyRequest, publicOrigin: string): string | undefined {
  const origin = request.headers.origin;
  return origin === undefined || origin === publicOrigin ? undefined : origin;
}

/**
 * Answers preflights on `paths` of `app`: the CORS headers only for an origin some key lists.
 * The headers the page asks to send are allowed as asked (the `openai` client sends its own
 * `x-stainless-*` set): the credential is the key, which the page must hold anyway.
 */
export function registerApiPreflight(app: FastifyInstance, policy: ApiCorsPolicy, paths: readonly string[]) {
  const preflight = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('vary', 'Origin');
    const origin = foreignOrigin(request, policy.publicOrigin);
    if (origin && normaliseOrigin(origin) === origin && (await policy.anyKeyAllowsOrigin(origin))) {
      const asked = request.headers['access-control-request-headers'];
      reply
        .header('access-control-allow-origin', origin)
        .header('access-control-allow-methods', METHODS)
        .header(
          'access-control-allow-headers',
          typeof asked === 'string' && HEADER_LIST.test(asked) ? asked : 'authorization, content-type',
        )
        .header('access-control-max-age', '600');
    }
    return reply.code(204).send();
  };
  for (const path of paths)
    app.options(path, { config: { public: true }, schema: { hide: true } }, preflight);
}

/**
 * After authentication: a call from a page of another origin is answered only when its API key
 * lists that origin, with the headers that let the page read the answer; any other is refused
 * (403), so nothing runs for a page that could not read the result. Calls from code send no
 * `Origin` and are untouched.
 */
export function checkApiOrigin(request: FastifyRequest, reply: FastifyReply, publicOrigin: string) {
  if (request.method === 'OPTIONS') return;
  reply.header('vary', 'Origin');
  const origin = foreignOrigin(request, publicOrigin);
  if (origin === undefined) return;
  if (!request.apiKey?.origins.includes(origin)) {
    throw new HttpError(
      'forbidden',
      `Calls from pages of ${origin} need an API key that lists that origin in its allowed origins`,
    );
  }
  reply.header('access-control-allow-origin', origin).header('access-control-expose-headers', EXPOSED);
}
