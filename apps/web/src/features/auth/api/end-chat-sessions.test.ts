import { describe, expect, it, vi } from 'vitest';
import { endChatSessions } from './end-chat-sessions';

describe('sign-out ends the chat sessions', () => {
  it('A4: posts the logout with the chat CSRF header and the access token', async () => {
    const fetchImpl = vi.fn<typeof fetch>().mockResolvedValue(new Response('{"success":true}'));
    await endChatSessions({ chainlitUrl: 'http://app.test/chainlit/', accessToken: 'tok', fetchImpl });
    // The generated chat client hands fetch a Request.
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    const { url, method, credentials, headers } = fetchImpl.mock.calls[0]![0] as Request;
    expect({ url, method, credentials, headers: Object.fromEntries(headers.entries()) }).toEqual({
      url: 'http://app.test/chainlit/logout',
      method: 'POST',
      credentials: 'include',
      headers: { 'x-requested-with': 'cadre-chat', authorization: 'Bearer tok' },
    });
  });

  it('A4: a failed logout does not stop the sign-out', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fetchImpl = vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(
      endChatSessions({ chainlitUrl: 'http://app.test/chainlit', accessToken: undefined, fetchImpl }),
    ).resolves.toBeUndefined();
    warn.mockRestore();
  });
});
