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
  const headers: Record<string, string> = { [CHAT_CSRF_HEADER]: CHAT_CSRF_VALUE };
  if (options.accessToken) headers.Authorization = `Bearer ${options.accessToken}`;
  try {
    // Fetched at sign-out: the chat service's client is no part of what the app loads to start.
    const { chatLogout, createChatClient } = await import('@cadre/chat/client');
    const client = createChatClient({
      baseUrl: options.chainlitUrl,
      credentials: 'include',
      fetch: options.fetchImpl,
    });
    await chatLogout({ client, headers });
  } catch (error) {
    console.warn('ending the chat sessions failed at sign-out', error);
  }
}
