import { CHAT_AGENT_HEADER, CHAT_CSRF_VALUE } from '@cadre/contract';

/** Where the chat API is and how requests to it are authenticated. */
export interface ChatEndpoint {
  /** The chat service's base URL without a trailing slash, e.g. `/chainlit` or `https://host/chainlit`. */
  baseUrl: string;
  /** The frame uses its session cookie; the copilot sends `Authorization: Bearer <copilot token>`. */
  accessToken?: string;
  /**
   * The agent the frame was opened for (its URL's `agent`): named on every request, so the server
   * answers with that agent's session even when another tab opened another agent since.
   */
  agentId?: number;
  /** Where "reconnect" links point (the web app's `/services` page) and how they open. */
  servicesUrl: string;
  linkTarget: '_top' | '_blank';
}

/**
 * The frame is one build served at two mounts: `/chainlit/` (signed-in users) and `/demos/` (the
 * public demos, with their own cookie and API). It talks to the mount it was loaded from.
 */
export function frameBaseUrl(pathname: string): '/chainlit' | '/demos' {
  return pathname === '/demos' || pathname.startsWith('/demos/') ? '/demos' : '/chainlit';
}

/** The frame's address: `?agent=ID` names its agent, `&thread=ID` the conversation to open. */
export function frameParams(search: string): { agentId?: number; threadId?: string } {
  const params = new URLSearchParams(search);
  const agent = params.get('agent');
  const thread = params.get('thread');
  return {
    agentId: agent && /^\d{1,12}$/.test(agent) ? Number(agent) : undefined,
    threadId: thread || undefined,
  };
}

export function frameEndpoint(): ChatEndpoint {
  return {
    baseUrl: frameBaseUrl(window.location.pathname),
    agentId: frameParams(window.location.search).agentId,
    servicesUrl: `${window.location.origin}/services`,
    linkTarget: '_top',
  };
}

export function copilotEndpoint(chainlitServer: string, accessToken: string | undefined): ChatEndpoint {
  const base = chainlitServer.replace(/\/+$/, '');
  const origin = new URL(base, window.location.href).origin;
  return {
    baseUrl: /\/chainlit$/.test(base) ? base : `${base}/chainlit`,
    accessToken,
    servicesUrl: `${origin}/services`,
    linkTarget: '_blank',
  };
}

/**
 * Headers for every request: the bearer token (copilot, no cookies) or the CSRF marker (frame),
 * and the frame's agent.
 */
export function authHeaders(endpoint: ChatEndpoint): Record<string, string> {
  if (endpoint.accessToken) return { Authorization: `Bearer ${endpoint.accessToken}` };
  const headers: Record<string, string> = { 'X-Requested-With': CHAT_CSRF_VALUE };
  if (endpoint.agentId !== undefined) headers[CHAT_AGENT_HEADER] = String(endpoint.agentId);
  return headers;
}

export const credentialsFor = (endpoint: ChatEndpoint): RequestCredentials =>
  endpoint.accessToken ? 'omit' : 'include';
