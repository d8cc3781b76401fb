import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CHAT_SESSION_COOKIE, chatAuthSuccessSchema, errorSchema } from '@cadre/contract';
import { bearer } from '../../../http/auth.ts';
import { SESSION_TTL_SECONDS, type ChatSessions } from '../sessions.ts';
import { assertSameOriginRequest } from './session-auth.ts';
import { chatOperation } from './chat-operation.ts';

const CREDENTIALS_SIGN_IN = 'credentialssignin';
const AGENT_ID = /^\d{1,12}$/;
export const NO_SUCH_AGENT = 'This agent does not exist or is not yours';

/** `/chainlit` only: sign in with an API access token for one agent, and sign out. */
export const signInRoutes: FastifyPluginAsyncZod<{
  sessions: ChatSessions;
  publicOrigin: string;
  secureCookie: boolean;
}> = async (app, { sessions, publicOrigin, secureCookie }) => {
  const cookie = { path: '/chainlit', httpOnly: true, sameSite: 'strict' as const, secure: secureCookie };

  app.post(
    '/auth/header',
    chatOperation('chatAuthHeader', {
      response: { 200: chatAuthSuccessSchema, 401: errorSchema, 404: errorSchema },
    }),
    async (request, reply) => {
      const rawAgent = request.headers['x-agent-id'] ?? request.headers['agent-id'];
      const agentId =
        typeof rawAgent === 'string' && AGENT_ID.test(rawAgent.trim()) ? Number(rawAgent) : undefined;
      const result = await sessions.signIn(bearer(request), agentId);
      if ('refused' in result) {
        // A signed-in person asking for someone else's (or a deleted) agent is told so, not sent
        // back to sign in; both cases read the same, so no one learns which agent ids exist.
        return result.refused === 'no_such_agent'
          ? reply.code(404).send({ detail: NO_SUCH_AGENT })
          : reply.code(401).send({ detail: CREDENTIALS_SIGN_IN });
      }
      reply.setCookie(CHAT_SESSION_COOKIE, result.value, { ...cookie, maxAge: SESSION_TTL_SECONDS });
      return { success: true as const };
    },
  );

  app.post(
    '/logout',
    chatOperation('chatLogout', {
      response: { 200: chatAuthSuccessSchema, 401: errorSchema },
    }),
    async (request, reply) => {
      const value = request.cookies[CHAT_SESSION_COOKIE];
      const token = bearer(request);
      if (value || token) assertSameOriginRequest(request, publicOrigin);
      if (value) await sessions.signOut(value);
      // The web app's sign-out names its user: every chat session and copilot token of theirs ends.
      if (token && !(await sessions.revokeForAccessToken(token))) {
        return reply.code(401).send({ detail: 'Invalid access token' });
      }
      reply.clearCookie(CHAT_SESSION_COOKIE, cookie);
      return { success: true as const };
    },
  );
};
