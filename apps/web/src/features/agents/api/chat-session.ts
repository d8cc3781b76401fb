import {
  CHAT_AGENT_HEADER,
  CHAT_CSRF_HEADER,
  CHAT_CSRF_VALUE,
  errorCodeOf,
  NO_SUCH_AGENT,
} from '@cadre/contract';

/**
 * The chat service's session calls (spec section 7, "Chat server"; integrations.md section 4.1):
 * drop any previous chat session with this agent, then log in with the user's token and the agent
 * id. Both send credentials so the agent's session cookie is set for the frame. Sessions are per
 * agent, so opening one agent's chat never ends the chat of another agent open in another tab.
 */
export async function openChatSession(options: {
  chainlitUrl: string;
  agentId: number;
  accessToken: string | undefined;
  fetchImpl?: typeof fetch;
}): Promise<void> {
  const doFetch = options.fetchImpl ?? fetch;
  const base = options.chainlitUrl.replace(/\/+$/, '');
  try {
    await doFetch(`${base}/logout`, {
      method: 'POST',
      credentials: 'include',
      headers: { [CHAT_CSRF_HEADER]: CHAT_CSRF_VALUE, [CHAT_AGENT_HEADER]: String(options.agentId) },
    });
  } catch {
    // There may be no previous session, or the chat service may refuse it: either way, go on.
  }
  const headers: Record<string, string> = { 'X-Agent-Id': String(options.agentId) };
  if (options.accessToken) headers.Authorization = `Bearer ${options.accessToken}`;
  const response = await doFetch(`${base}/auth/header`, { method: 'POST', credentials: 'include', headers });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { detail?: unknown } | null;
    // The agent is gone or someone else's: say that, not that signing in failed.
    if (errorCodeOf(body) === 'not_found')
      throw new Error(typeof body?.detail === 'string' ? `${body.detail}.` : `${NO_SUCH_AGENT}.`);
    throw new Error(`The chat service refused the sign-in (${response.status} ${response.statusText}).`);
  }
}
