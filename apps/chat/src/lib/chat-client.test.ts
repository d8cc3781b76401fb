import { describe, expect, it, vi } from 'vitest';
import { ChatHttpError, chatSession, createChatClient } from './chat-client';

const clientAnswering = (answer: () => Promise<Response>) => {
  const fetchMock = vi.fn<typeof fetch>(answer);
  return {
    fetchMock,
    client: createChatClient({
      baseUrl: 'https://cadre.example/chainlit/',
      credentials: 'omit',
      fetch: fetchMock,
    }),
  };
};

describe('the chat client', () => {
  it("turns an error answer into a ChatHttpError with its status and the server's detail", async () => {
    const { client, fetchMock } = clientAnswering(async () =>
      Response.json({ detail: 'Not authenticated' }, { status: 401 }),
    );
    const failure = await chatSession({ client }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ChatHttpError);
    expect(failure).toMatchObject({ status: 401, message: 'Not authenticated' });
    // The mount's trailing slash is dropped: the path is the mount's own.
    expect((fetchMock.mock.calls[0]![0] as Request).url).toBe('https://cadre.example/chainlit/session');
  });

  it('names the status when the answer holds no detail (a proxy page, an empty body)', async () => {
    const { client } = clientAnswering(async () => new Response('<h1>Bad gateway</h1>', { status: 502 }));
    await expect(chatSession({ client })).rejects.toMatchObject({
      status: 502,
      message: 'The chat service answered 502.',
    });
  });

  it('passes a network failure on as it is', async () => {
    const offline = new TypeError('Failed to fetch');
    const { client } = clientAnswering(async () => Promise.reject(offline));
    await expect(chatSession({ client })).rejects.toBe(offline);
  });
});
