import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CHAT_AGENT_HEADER, CHAT_CSRF_HEADER, CHAT_CSRF_VALUE } from '@cadre/contract';
import { bearer } from '../../../http/auth.ts';
import { HttpError } from '../../../http/errors.ts';
import type { ChatVia } from '../context.ts';
import type { SessionPrincipal } from '../sessions.ts';
import { checkEmbedOrigin, registerEmbedPreflight, type EmbedPolicy } from './embed-cors.ts';

/**
 * How cookie sessions are authenticated on one mount of the chat: the `/chainlit` sessions, or a
 * mount's own (the demos). Sessions of one mount are never accepted by another.
 */
export interface ChatSessionStrategy {
  /** The cookie that carries the session value of a request that names no agent. */
  cookieName: string;
  /** The cookie of one agent's session, when each agent has its own (the `/chainlit` sessions). */
  agentCookieName?: (agentId: number) => string;
  /** The user and agent of a session value, or undefined when it is unknown or expired. */
  resolve(value: string): Promise<SessionPrincipal | undefined>;
}

export interface ChatPrincipal extends SessionPrincipal {
  via: ChatVia;
}

const BEARER_ATTEMPT = /^Bearer\s+\S+$/i;
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const principals = new WeakMap<FastifyRequest, ChatPrincipal>();
/** What an agent id header may hold: digits, no more than a database id has. */
export const AGENT_ID = /^\d{1,12}$/;

/**
 * The agent a request says it speaks to (the frame names its own on every request), if any; a
 * header that is not an agent id is a 400.
 */
export function namedAgent(request: FastifyRequest): number | undefined {
  const raw = request.headers[CHAT_AGENT_HEADER];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !AGENT_ID.test(raw)) {
    throw new HttpError('bad_request', `The ${CHAT_AGENT_HEADER} header must be an agent id`);
  }
  return Number(raw);
}

/** The authenticated user and agent of a chat request (set by the onRequest hook). */
export function principalOf(request: FastifyRequest): ChatPrincipal {
  const principal = principals.get(request);
  if (!principal) throw new HttpError('unauthorized', 'Not signed in to the chat');
  return principal;
}

/** CSRF for cookie requests: our own header and our own origin (a bearer carries no ambient credential). */
export function assertSameOriginRequest(request: FastifyRequest, publicOrigin: string) {
  if (request.headers[CHAT_CSRF_HEADER] !== CHAT_CSRF_VALUE) {
    throw new HttpError('forbidden', `Missing the ${CHAT_CSRF_HEADER}: ${CHAT_CSRF_VALUE} header`);
  }
  if (request.headers.origin !== publicOrigin)
    throw new HttpError('forbidden', 'Cross-origin request refused');
}

/**
 * Authenticates every route of `app`'s context: EITHER a copilot bearer token OR the mount's
 * session cookie (then state-changing requests must pass the CSRF check). 401 otherwise. A request
 * that names its agent is answered only for that agent: by that agent's own cookie where each
 * agent has one, so two tabs with two agents never borrow each other's session.
 */
export function registerSessionAuth(
  app: FastifyInstance,
  options: {
    sessions: ChatSessionStrategy;
    copilot: (token: string) => Promise<SessionPrincipal | undefined>;
    publicOrigin: string;
    /** Where the copilot may be embedded (the `/chainlit` mount); without it, no CORS at all. */
    embed?: EmbedPolicy;
  },
) {
  const { embed } = options;
  if (embed) registerEmbedPreflight(app, embed);
  // onRequest, before the body is read: an anonymous caller cannot make us parse or validate (A1).
  app.addHook('onRequest', async (request, reply) => {
    if (embed && request.method === 'OPTIONS') return;
    const token = bearer(request);
    const agentId = namedAgent(request);
    let principal: ChatPrincipal;
    // A malformed bearer token is still a copilot sign-in attempt, refused as such.
    if (token !== undefined || BEARER_ATTEMPT.test(request.headers.authorization ?? '')) {
      const copilot = token === undefined ? undefined : await options.copilot(token);
      if (!copilot) throw new HttpError('unauthorized', 'Invalid copilot token');
      principal = { ...copilot, via: 'copilot' };
    } else {
      const { agentCookieName, cookieName } = options.sessions;
      const value =
        request.cookies[agentId !== undefined && agentCookieName ? agentCookieName(agentId) : cookieName];
      const session = value ? await options.sessions.resolve(value) : undefined;
      if (!session) throw new HttpError('unauthorized', 'Not signed in to the chat');
      if (STATE_CHANGING.has(request.method)) assertSameOriginRequest(request, options.publicOrigin);
      principal = { userId: session.userId, agentId: session.agentId, via: 'cookie' };
    }
    if (agentId !== undefined && principal.agentId !== agentId) {
      throw new HttpError('unauthorized', 'Not signed in to the chat with this agent');
    }
    if (embed) await checkEmbedOrigin(request, reply, principal, embed);
    principals.set(request, principal);
  });
}
