import { chatLogout, createChatClient } from '@cadre/chat/client';
import { CHAT_CSRF_HEADER, CHAT_CSRF_VALUE } from '@cadre/contract';

/**
 * Sign-out's first step (A4): the chat service ends this browser's chat session and, for the
 * access token's user, every other chat session and copilot token, before the provider's own
 * sign-out. A failure must not keep anyone signed in, so it is only logged.
 */
export async function endChatSessions(options: {
  chainlitUrl: string;
  accessToken: string | undefined;
  fetchImpl?: typeof fetch;
}): Promise<void> {
  const client = createChatClient({
    baseUrl: options.chainlitUrl,
    credentials: 'include',
    fetch: options.fetchImpl,
  });
  const headers: Record<string, string> = { [CHAT_CSRF_HEADER]: CHAT_CSRF_VALUE };
  if (options.accessToken) headers.Authorization = `Bearer ${options.accessToken}`;
  try {
    await chatLogout({ client, headers });
  } catch (error) {
    console.warn('ending the chat sessions failed at sign-out', error);
  }
}
