import { CHAT_PAGE_SIZE } from '../lib/api';
import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeServer, json, session } from '../test/fake-server';
import { callHostFunction, mountWidget, NO_TOKEN, toggleWidget, unmountWidget } from './widget';

afterEach(() => {
  act(() => unmountWidget());
  vi.unstubAllGlobals();
  localStorage.clear();
});

const shadow = () => document.querySelector('#chainlit-copilot')!.shadowRoot!;

describe('copilot widget', () => {
  it('mounts in a shadow root, styles go into it, and without a token says so', async () => {
    act(() => mountWidget({ chainlitServer: 'https://cadre.example/chainlit', opened: true }));
    const root = document.querySelector('#chainlit-copilot')!;
    expect(root.shadowRoot).not.toBeNull();
    await waitFor(() => expect(shadow().textContent).toContain(NO_TOKEN));
    expect(shadow().querySelector('style[data-emotion^="cadre"]')).not.toBeNull();
    expect(document.head.querySelector('style[data-emotion^="cadre"]')).toBeNull();
    act(() => unmountWidget());
    expect(document.querySelector('#chainlit-copilot')).toBeNull();
  });

  it('toggles the panel from the button and window.toggleChainlitCopilot', async () => {
    act(() => mountWidget({ chainlitServer: 'https://cadre.example/chainlit' }));
    expect(shadow().querySelector('[data-testid="copilot-panel"]')).toBeNull();
    act(() => (shadow().querySelector('#chainlit-copilot-button') as HTMLButtonElement).click());
    expect(shadow().querySelector('[data-testid="copilot-panel"]')).not.toBeNull();
    act(() => toggleWidget());
    expect(shadow().querySelector('[data-testid="copilot-panel"]')).toBeNull();
  });

  it('authenticates every request with the bearer token and sends no cookies', async () => {
    const { requests } = installFakeServer({
      'GET /chainlit/session': () => json({ ...session(), via: 'copilot' }),
      'GET /chainlit/threads': () => json({ data: [] }),
    });
    act(() =>
      mountWidget({ chainlitServer: 'https://cadre.example/chainlit', accessToken: 'cop-tok', opened: true }),
    );
    await waitFor(() => expect(shadow().textContent).toContain('Ledger Helper'));
    expect(requests.map((r) => r.url)).toEqual([
      'https://cadre.example/chainlit/session',
      `https://cadre.example/chainlit/threads?limit=${CHAT_PAGE_SIZE}`,
    ]);
    for (const r of requests) expect(r.headers.authorization).toBe('Bearer cop-tok');
    for (const r of requests) expect(r.credentials).toBe('omit');
  });

  it('dispatches chainlit-call-fn and resolves with the callback result (first answer wins)', async () => {
    const listener = vi.fn((event: Event) => {
      const { name, args, callback } = (event as CustomEvent).detail;
      callback({ echoed: name, args });
      callback('ignored');
    });
    window.addEventListener('chainlit-call-fn', listener);
    await expect(callHostFunction({ name: 'getCart', args: { id: 1 } })).resolves.toEqual({
      echoed: 'getCart',
      args: { id: 1 },
    });
    window.removeEventListener('chainlit-call-fn', listener);
  });
});
