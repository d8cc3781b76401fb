import { describe, expect, it, vi } from 'vitest';
import { chatFrameUrl } from '@cadre/contract';
import { openChatSession } from './chat-session';

/** What the generated chat client sent: it hands fetch a Request. */
const sent = (request: RequestInfo | URL) => {
  const { url, method, credentials, headers } = request as Request;
  return { url, method, credentials, headers: Object.fromEntries(headers.entries()) };
};

describe('chat session', () => {
  it("A4: logs out of this agent's chat only (errors ignored), then logs in with the bearer token and the agent id", async () => {
    const fetchImpl = vi
      .fn<typeof fetch>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(new Response('{"success":true}', { status: 200 }));
    await openChatSession({
      chainlitUrl: 'http://app.test/chainlit/',
      agentId: 12,
      accessToken: 'tok',
      fetchImpl,
    });
    // A4: without the chat's CSRF header the server refuses the logout and the old session lives on.
    expect(fetchImpl.mock.calls.map(([request]) => sent(request))).toEqual([
      {
        url: 'http://app.test/chainlit/logout',
        method: 'POST',
        credentials: 'include',
        headers: { 'x-requested-with': 'cadre-chat', 'x-agent-id': '12' },
      },
      {
        url: 'http://app.test/chainlit/auth/header',
        method: 'POST',
        credentials: 'include',
        headers: { 'x-agent-id': '12', authorization: 'Bearer tok' },
      },
    ]);
  });

  it('fails when the chat service refuses the sign-in', async () => {
    const fetchImpl = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(new Response(null, { status: 200 }))
      .mockResolvedValueOnce(
        new Response('{"detail":"credentialssignin","code":"unauthorized"}', {
          status: 401,
          statusText: 'Unauthorized',
        }),
      );
    await expect(
      openChatSession({
        chainlitUrl: 'http://app.test/chainlit',
        agentId: 1,
        accessToken: undefined,
        fetchImpl,
      }),
    ).rejects.toThrow('401');
  });

  it('names the agent, not the sign-in, when the agent is missing or not yours', async () => {
    const fetchImpl = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(new Response(null, { status: 200 }))
      .mockResolvedValueOnce(
        new Response('{"detail":"This agent does not exist or is not yours","code":"not_found"}', {
          status: 404,
        }),
      );
    await expect(
      openChatSession({ chainlitUrl: 'http://app.test/chainlit', agentId: 9, accessToken: 't', fetchImpl }),
    ).rejects.toThrow('This agent does not exist or is not yours.');
  });

  it('frames the chat service root for the agent, at the thread when there is one', () => {
    expect(chatFrameUrl('http://app.test/chainlit', 12)).toBe('http://app.test/chainlit/?agent=12');
    expect(chatFrameUrl('http://app.test/chainlit/', 12, 'th-1')).toBe(
      'http://app.test/chainlit/?agent=12&thread=th-1',
    );
  });
});
