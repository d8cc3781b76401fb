import { CHAT_CSRF_VALUE } from '@cadre/contract';

/** Where the chat API is and how requests to it are authenticated. */
export interface ChatEndpoint {
  /** The chat service's base URL without a trailing slash, e.g. `/chainlit` or `https://host/chainlit`. */
  baseUrl: string;
  /** The frame uses its session cookie; the copilot sends `Authorization: Bearer <copilot token>`. */
  accessToken?: string;
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

export function frameEndpoint(): ChatEndpoint {
  return {
    baseUrl: frameBaseUrl(window.location.pathname),
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

/** Headers for every request: the bearer token (copilot, no cookies) or the CSRF marker (frame). */
export function authHeaders(endpoint: ChatEndpoint): Record<string, string> {
  return endpoint.accessToken
    ? { Authorization: `Bearer ${endpoint.accessToken}` }
    : { 'X-Requested-With': CHAT_CSRF_VALUE };
}

export const credentialsFor = (endpoint: ChatEndpoint): RequestCredentials =>
  endpoint.accessToken ? 'omit' : 'include';
