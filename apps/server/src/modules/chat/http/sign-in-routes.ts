import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CHAT_AGENT_HEADER,
  CHAT_SESSION_COOKIE,
  chatAuthSuccessSchema,
  chatSessionCookieFor,
  errorSchema,
  NO_SUCH_AGENT,
} from '@cadre/contract';
import { bearer } from '../../../http/auth.ts';
import { HttpError } from '../../../http/errors.ts';
import { SESSION_TTL_SECONDS, type ChatSessions } from '../sessions.ts';
import { AGENT_ID, assertSameOriginRequest, namedAgent } from './session-auth.ts';
import { chatOperation } from './chat-operation.ts';

const CREDENTIALS_SIGN_IN = 'credentialssignin';
const AGENT_COOKIE = new RegExp(`^${CHAT_SESSION_COOKIE}_\\d{1,12}$`);

/** `/chainlit` only: sign in with an API access token for one agent, and sign out. */
export const signInRoutes: FastifyPluginAsyncZod<{
  sessions: ChatSessions;
  publicOrigin: string;
  secureCookie: boolean;
}> = async (app, { sessions, publicOrigin, secureCookie }) => {
  const cookie = { path: '/chainlit', httpOnly: true, sameSite: 'strict' as const, secure: secureCookie };

  app.post(
    '/auth/header',
    chatOperation(
      'chatAuthHeader',
      "Opens a chat session for one agent with the API's bearer token; sets the session cookies",
      {
        security: [{ bearer: [] }],
        response: { 200: chatAuthSuccessSchema, 401: errorSchema, 404: errorSchema },
      },
    ),
    async (request, reply) => {
      const rawAgent = request.headers[CHAT_AGENT_HEADER] ?? request.headers['agent-id'];
      const agentId =
        typeof rawAgent === 'string' && AGENT_ID.test(rawAgent.trim()) ? Number(rawAgent) : undefined;
      const result = await sessions.signIn(bearer(request), agentId);
      if ('refused' in result) {
        // A signed-in person asking for someone else's (or a deleted) agent is told so, not sent
        // back to sign in; both cases read the same, so no one learns which agent ids exist.
        throw result.refused === 'no_such_agent'
          ? new HttpError('not_found', NO_SUCH_AGENT)
          : new HttpError('unauthorized', CREDENTIALS_SIGN_IN);
      }
      const options = { ...cookie, maxAge: SESSION_TTL_SECONDS };
      // The agent's own cookie is what its frame uses; the plain one serves clients naming no agent.
      reply.setCookie(chatSessionCookieFor(result.agentId), result.value, options);
      reply.setCookie(CHAT_SESSION_COOKIE, result.value, options);
      return { success: true as const };
    },
  );

  app.post(
    '/logout',
    chatOperation(
      'chatLogout',
      "Ends this browser's chat sessions, or with a bearer token every chat session of its user",
      {
        security: [{ chatSession: [] }, { bearer: [] }],
        response: { 200: chatAuthSuccessSchema, 400: errorSchema, 401: errorSchema },
      },
    ),
    async (request, reply) => {
      const agentId = namedAgent(request);
      const token = bearer(request);
      // Naming an agent ends that agent's session only (reopening one tab never ends another's);
      // otherwise every chat session of this browser ends.
      const ours = Object.keys(request.cookies).filter(
        (name) => name === CHAT_SESSION_COOKIE || AGENT_COOKIE.test(name),
      );
      const ending =
        agentId === undefined ? ours : [chatSessionCookieFor(agentId)].filter((n) => ours.includes(n));
      const values = new Set(ending.map((name) => request.cookies[name]!));
      if (values.size || token) assertSameOriginRequest(request, publicOrigin);
      for (const value of values) await sessions.signOut(value);
      // The web app's sign-out names its user: every chat session and copilot token of theirs ends.
      if (token && !(await sessions.revokeForAccessToken(token))) {
        throw new HttpError('unauthorized', 'Invalid access token');
      }
      // Every cookie whose session just ended goes, the plain one included when it held that session.
      const cleared = new Set(ours.filter((name) => values.has(request.cookies[name]!)));
      cleared.add(agentId === undefined ? CHAT_SESSION_COOKIE : chatSessionCookieFor(agentId));
      for (const name of cleared) reply.clearCookie(name, cookie);
      return { success: true as const };
    },
  );
};
