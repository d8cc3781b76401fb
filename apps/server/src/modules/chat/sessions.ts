import { createHash, randomBytes } from 'node:crypto';
import { CHAT_SESSION_COOKIE, chatSessionCookieFor } from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import type { AgentDirectory } from './ports.ts';
import { createSessionRepository } from './session-repository.ts';

export const SESSION_TTL_SECONDS = 8 * 60 * 60;

const hashSession = (value: string) => createHash('sha256').update(value).digest('hex');

/** The user and agent a chat session or copilot token speaks for. */
export interface SessionPrincipal {
  userId: number;
  agentId: number;
  /** A copilot token minted for a host site's visitor: whose threads ('' or absent: the owner's). */
  endUser?: string;
  /** A copilot token bound to the page origin it may be used from. */
  origin?: string;
  /** The name the host site gave its visitor (told to the agent), when it gave one. */
  visitorName?: string;
}

/** What a copilot token carries (see modules/auth/copilot-token.ts). */
export interface VerifiedCopilotToken {
  userId: number;
  agentId: number;
  issuedAt: number;
  origin?: string;
  endUser?: { id: string; displayName?: string };
}

export interface ChatSessionsDeps {
  db: Db;
  agents: Pick<AgentDirectory, 'exists'>;
  /** DISABLE_AUTH (never in production): sign-in needs no token; the verifier answers the mock user. */
  authDisabled: boolean;
  /** Verifies an API access token exactly as the API does. */
  /**
   * Verifies an API access token exactly as the API does: its user, and the identity provider
   * session (`sid` claim) it was issued under when the token carries one.
   */
  verifyAccessToken?: (
    token: string,
    agentId?: number,
  ) => Promise<{ id: number; sid?: string; sessionExpiresAt?: number } | null>;
  /** Verifies a copilot token (from `POST /api/v1/auth/chainlit-copilot-login`); `issuedAt` in ms. */
  verifyCopilotToken?: (token: string) => Promise<VerifiedCopilotToken | null>;
}

/**
 * Who is chatting: the `/chainlit` cookie sessions (bound to one user and one agent, 8 hours, one
 * cookie per agent) and the copilot widget's bearer tokens. Both are accepted only for one of the
 * user's own agents.
 */
export function createChatSessions(deps: ChatSessionsDeps) {
  const repo = createSessionRepository(deps.db);
  const ownsAgent = (userId: number, agentId: number) => deps.agents.exists(userId, agentId);
  return {
    cookieName: CHAT_SESSION_COOKIE,
    agentCookieName: chatSessionCookieFor,

    /** The user and agent of a session cookie's value, while it lives. */
    resolve: (value: string): Promise<SessionPrincipal | undefined> => repo.find(hashSession(value)),

    /**
     * Starts a session for the access token's user with one of their agents: the cookie value, or
     * why not: the token (or the agent header) is missing or invalid, or the agent is not theirs.
     */
    async signIn(
      token: string | undefined,
      agentId: number | undefined,
    ): Promise<{ value: string; agentId: number } | { refused: 'unauthenticated' | 'no_such_agent' }> {
      const user =
        (token || deps.authDisabled) && deps.verifyAccessToken
          ? await deps.verifyAccessToken(token ?? '', agentId).catch(() => null)
          : null;
      if (!user || agentId === undefined) return { refused: 'unauthenticated' };
      // A chat session never outlives the provider session the token was issued under (A4).
      const expiresAt = Math.min(Date.now() + SESSION_TTL_SECONDS * 1000, user.sessionExpiresAt ?? Infinity);
      if (expiresAt <= Date.now()) return { refused: 'unauthenticated' };
      if (!(await ownsAgent(user.id, agentId))) return { refused: 'no_such_agent' };
      const value = randomBytes(32).toString('base64url');
      await repo.create({
        idHash: hashSession(value),
        userId: user.id,
        agentId,
        expiresAt: new Date(expiresAt).toISOString(),
        // The chat session ends with the provider session the token was issued under (A4).
        idpSid: user.sid,
      });
      return { value, agentId };
    },

    signOut: (value: string) => repo.delete(hashSession(value)),

    /**
     * Sign-out everywhere (A4) for the user of an API access token: their chat sessions and the
     * copilot tokens issued so far end. False when the token is not valid.
     */
    async revokeForAccessToken(token: string): Promise<boolean> {
      const user = deps.verifyAccessToken ? await deps.verifyAccessToken(token).catch(() => null) : null;
      if (!user) return false;
      await repo.revokeUser(user.id);
      return true;
    },

    /** The user and agent of a copilot token, or undefined when it is invalid or the agent is not theirs. */
    async copilot(token: string): Promise<SessionPrincipal | undefined> {
      const verified = deps.verifyCopilotToken
        ? await deps.verifyCopilotToken(token).catch(() => null)
        : null;
      if (!verified || !(await ownsAgent(verified.userId, verified.agentId))) return undefined;
      // A token issued in the second of a sign-out or before it is refused (iat has second precision).
      const revokedAt = await repo.revokedAt(verified.userId);
      if (revokedAt && verified.issuedAt <= Date.parse(revokedAt)) return undefined;
      const principal: SessionPrincipal = { userId: verified.userId, agentId: verified.agentId };
      if (verified.endUser) principal.endUser = verified.endUser.id;
      if (verified.endUser?.displayName) principal.visitorName = verified.endUser.displayName;
      if (verified.origin !== undefined) principal.origin = verified.origin;
      return principal;
    },
  };
}

export type ChatSessions = ReturnType<typeof createChatSessions>;

/**
 * Sign-out at the identity provider (A4): ends the chat sessions opened under the provider session
 * `sid`, or every chat session of the user without one, and the user's copilot tokens. Rows in
 * the database, so every instance refuses them from the next request.
 */
export function endChatSessionsOf(db: Pick<Db, 'kysely'>, ended: { userId?: number; sid?: string }) {
  const repo = createSessionRepository(db);
  if (ended.sid !== undefined) return repo.revokeIdpSession(ended.sid, ended.userId);
  if (ended.userId !== undefined) return repo.revokeUser(ended.userId);
  throw new TypeError('endChatSessionsOf needs a sid or a user');
}
