import { act, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as FakeApi from '../../../test/fake-api';
import type * as Render from '../../../test/render';

/**
 * The page moves the frame with showInFrame, which jsdom cannot do (it does not navigate frames),
 * so the test records the calls instead. The web tests share loaded modules between files
 * (`isolate: false`), so the app is loaded afresh after the mock, and unloaded again afterwards
 * for the next file.
 */
const showInFrame = vi.fn();
let installFakeApi: typeof FakeApi.installFakeApi;
let renderApp: typeof Render.renderApp;
beforeAll(async () => {
  vi.resetModules();
  vi.doMock('../api/chat-frame', () => ({ showInFrame }));
  ({ installFakeApi } = await import('../../../test/fake-api'));
  ({ renderApp } = await import('../../../test/render'));
});
afterAll(() => {
  vi.doUnmock('../api/chat-frame');
  vi.resetModules();
});

const ORIGIN = 'http://app.test';

/** The chat route: each conversation has its own address (issue 16 item 1). */
describe('/agents/$Id/chat/$threadId', () => {
  let calls: { url: string; headers: Record<string, string> }[];
  beforeEach(() => {
    calls = [];
    installFakeApi();
    vi.stubGlobal(
      'fetch',
      // The chat service's generated client hands fetch a Request.
      vi.fn(async (request: Request) => {
        calls.push({ url: request.url, headers: Object.fromEntries(request.headers.entries()) });
        return new Response('{"success":true}', { status: 200 });
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    showInFrame.mockClear();
  });

  const frame = async () => (await screen.findByTitle('Agent chat')) as HTMLIFrameElement;
  const notice = (from: HTMLIFrameElement, data: unknown, origin = ORIGIN) =>
    act(() => {
      window.dispatchEvent(new MessageEvent('message', { data, origin, source: from.contentWindow }));
    });

  it("opens the agent's own chat session and frames the thread of the address", async () => {
    renderApp('/agents/5/chat/th-1');
    expect((await frame()).getAttribute('src')).toBe(`${ORIGIN}/chainlit/?agent=5&thread=th-1`);
    // Only this agent's old session ends: another tab's agent keeps its own.
    expect(calls.map((c) => [c.url, c.headers['x-agent-id']])).toEqual([
      [`${ORIGIN}/chainlit/logout`, '5'],
      [`${ORIGIN}/chainlit/auth/header`, '5'],
    ]);
  });

  it('waits out a database outage at the chat sign-in, saying so, and opens the chat by itself', async () => {
    let down = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        calls.push({ url: request.url, headers: Object.fromEntries(request.headers.entries()) });
        const refused = down && request.url.endsWith('/auth/header');
        return refused
          ? new Response('{"detail":"Service temporarily unavailable","code":"db_unavailable"}', {
              status: 503,
              headers: { 'content-type': 'application/json', 'retry-after': '1' },
            })
          : new Response('{"success":true}', { status: 200 });
      }),
    );
    renderApp('/agents/5/chat/th-1');
    expect(await screen.findByTestId('outage-notice')).toHaveTextContent(
      'Cadre cannot reach its database; retrying',
    );
    down = false;
    expect((await frame()).getAttribute('src')).toBe(`${ORIGIN}/chainlit/?agent=5&thread=th-1`);
    expect(screen.queryByTestId('outage-notice')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.url.endsWith('/auth/header'))).toHaveLength(2);
  });

  it('puts the thread the frame shows in the address; back and forward move the frame', async () => {
    const { router } = renderApp('/agents/5/chat/th-1');
    const iframe = await frame();
    const before = router.history.length;
    await notice(iframe, { type: 'cadre-chat:thread', threadId: 'th-2', history: 'push' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/agents/5/chat/th-2'));
    expect(router.history.length).toBe(before + 1);
    // The frame already shows th-2: it is not moved again.
    expect(showInFrame).not.toHaveBeenCalled();
    act(() => router.history.back());
    await waitFor(() => expect(router.state.location.pathname).toBe('/agents/5/chat/th-1'));
    await waitFor(() =>
      expect(showInFrame).toHaveBeenCalledWith(iframe, `${ORIGIN}/chainlit/?agent=5&thread=th-1`),
    );
    act(() => router.history.forward());
    await waitFor(() =>
      expect(showInFrame).toHaveBeenLastCalledWith(iframe, `${ORIGIN}/chainlit/?agent=5&thread=th-2`),
    );
    // The same frame throughout: the page never reloads it through its src.
    expect(await frame()).toBe(iframe);
  });

  it("gives a new chat its thread's address in place when its first turn is saved", async () => {
    const { router } = renderApp('/agents/5/chat');
    const iframe = await frame();
    expect(iframe.getAttribute('src')).toBe(`${ORIGIN}/chainlit/?agent=5`);
    const before = router.history.length;
    await notice(iframe, { type: 'cadre-chat:thread', threadId: null, history: 'replace' });
    await notice(iframe, { type: 'cadre-chat:thread', threadId: 'th-9', history: 'replace' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/agents/5/chat/th-9'));
    expect(router.history.length).toBe(before);
    expect(showInFrame).not.toHaveBeenCalled();
  });

  it('H3: ignores messages from other windows, other origins and of any other shape', async () => {
    const { router } = renderApp('/agents/5/chat/th-1');
    const iframe = await frame();
    const move = { type: 'cadre-chat:thread', threadId: 'th-2', history: 'push' };
    await notice(iframe, move, 'https://evil.example');
    act(() => {
      window.dispatchEvent(new MessageEvent('message', { data: move, origin: ORIGIN, source: window }));
    });
    await notice(iframe, { ...move, token: 'x' });
    await notice(iframe, { type: 'cadre-chat:thread', threadId: 'th-2' });
    await notice(iframe, 'cadre-chat:thread');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(router.state.location.pathname).toBe('/agents/5/chat/th-1');
  });
});
