// The chat service's header and cookie names (see chat.ts), apart from its schemas: the chat frame
// needs them on its way to a first paint, and zod would come along with chat.ts's schemas.

export const CHAT_CSRF_HEADER = 'x-requested-with';
export const CHAT_CSRF_VALUE = 'cadre-chat';
/**
 * HttpOnly, SameSite=Strict, Path=/chainlit, Secure on https, 8 hours; only its SHA-256 is stored.
 * The browser's latest chat session, for clients that name no agent (one agent at a time).
 */
export const CHAT_SESSION_COOKIE = 'cadre_chat_session';
/**
 * A chat session is bound to one user and one agent, and each agent has its own cookie, so any
 * number of tabs with different agents keep their own. A request that names its agent in
 * {@link CHAT_AGENT_HEADER} (the frame always does) is authenticated by that agent's cookie only.
 */
export const chatSessionCookieFor = (agentId: number) => `${CHAT_SESSION_COOKIE}_${agentId}`;
export const CHAT_AGENT_HEADER = 'x-agent-id';
