import { ChatHttpError, chatAuthHeader, chatLogout, createChatClient } from '@cadre/chat/client';
import { CHAT_AGENT_HEADER, CHAT_CSRF_HEADER, CHAT_CSRF_VALUE, NO_SUCH_AGENT } from '@cadre/contract';
import { outageOfError } from '../../../api/api-error';

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
  const client = createChatClient({
    baseUrl: options.chainlitUrl,
    credentials: 'include',
    fetch: options.fetchImpl,
  });
  const agent = String(options.agentId);
  try {
    await chatLogout({
      client,
      headers: { [CHAT_CSRF_HEADER]: CHAT_CSRF_VALUE, [CHAT_AGENT_HEADER]: agent },
    });
  } catch {
    // There may be no previous session, or the chat service may refuse it: either way, go on.
  }
  const headers: Record<string, string> = { 'X-Agent-Id': agent };
  if (options.accessToken) headers.Authorization = `Bearer ${options.accessToken}`;
  try {
    await chatAuthHeader({ client, headers });
  } catch (error) {
    // An outage is thrown as it is: the chat page waits it out (outageOfError).
    if (!(error instanceof ChatHttpError) || outageOfError(error)) throw error;
    // The agent is gone or someone else's: say that, not that signing in failed.
    if (error.code === 'not_found') throw new Error(`${NO_SUCH_AGENT}.`);
    throw new Error(`The chat service refused the sign-in (${error.status}).`);
  }
}
