import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi, json } from '../../../test/fake-api';
import { renderApp, testConfig } from '../../../test/render';

const SCRIPT = 'http://app.test/chainlit/copilot/index.js';
const script = () => document.head.querySelector<HTMLScriptElement>(`script[src="${SCRIPT}"]`);

afterEach(() => {
  script()?.remove();
  delete window.mountChainlitWidget;
  delete window.unmountChainlitWidget;
});

function fakeApi(agents: { id: number }[]) {
  return installFakeApi({
    'GET /api/v1/agents/': () =>
      json(agents.map((a) => ({ ...a, name: 'A', description: 'd', guidelines: null, tools: [] }))),
    'POST /api/v1/auth/chainlit-copilot-login': () => json({ copilot_auth_token: 'copilot-token' }),
  });
}

describe('the copilot page (/copilot)', () => {
  it('loads the widget script from the chat service and mounts it with a copilot token for the first agent', async () => {
    const api = fakeApi([{ id: 4 }, { id: 9 }]);
    renderApp('/copilot');
    expect(await screen.findByText('Copilot should load in the bottom right.')).toBeInTheDocument();
    await waitFor(() => expect(script()).not.toBeNull());
    const mount = vi.fn();
    window.mountChainlitWidget = mount;
    script()!.dispatchEvent(new Event('load'));
    await waitFor(() =>
      expect(mount).toHaveBeenCalledWith({
        chainlitServer: 'http://app.test/chainlit',
        accessToken: 'copilot-token',
      }),
    );
    expect(api.sent('POST /api/v1/auth/chainlit-copilot-login').map((r) => r.body)).toEqual([
      { agent_id: 4 },
    ]);
    expect(screen.getByText('Copilot should load in the bottom right.')).toBeInTheDocument();
    // Outside the shell (no sidebar, no user menu): the way back is a link.
    expect(screen.queryByRole('button', { name: /^Account menu of/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Back to Cadre' })).toHaveAttribute('href', '/info');
  });

  it("answers the chat's function call with a simulated message naming the call", async () => {
    fakeApi([{ id: 4 }]);
    renderApp('/copilot');
    await screen.findByText('Copilot should load in the bottom right.');
    const callback = vi.fn();
    window.dispatchEvent(
      new CustomEvent('chainlit-call-fn', { detail: { name: 'test', args: { msg: 'hi' }, callback } }),
    );
    expect(callback).toHaveBeenCalledWith(
      'Simulated answer from the host page: the function "test" ran with {"msg":"hi"}.',
    );
  });

  it('says the copilot needs an agent when there is none', async () => {
    fakeApi([]);
    renderApp('/copilot');
    await waitFor(() => expect(script()).not.toBeNull());
    window.mountChainlitWidget = vi.fn();
    script()!.dispatchEvent(new Event('load'));
    expect(await screen.findByText('The copilot could not be loaded.')).toBeInTheDocument();
    expect(
      screen.getByText('The copilot chats with one of your agents: create an agent first.'),
    ).toBeInTheDocument();
    expect(window.mountChainlitWidget).not.toHaveBeenCalled();
  });

  it('asks to sign in, and loads nothing, when nobody is signed in', async () => {
    const api = fakeApi([{ id: 4 }]);
    renderApp('/copilot', { config: { ...testConfig, isProduction: true, disableAuth0: false } });
    expect(await screen.findByText('Sign in to use the copilot.')).toBeInTheDocument();
    expect(screen.queryByText('Copilot should load in the bottom right.')).not.toBeInTheDocument();
    expect(api.requests).toEqual([]);
    expect(script()).toBeNull();
  });
});
