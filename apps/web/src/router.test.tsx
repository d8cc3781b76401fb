import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from './app';
import { installFakeApi, json } from './test/fake-api';
import { renderApp, signedInAuth, testConfig } from './test/render';
import { ROUTER_DEFAULTS } from './router';

afterEach(() => vi.restoreAllMocks());

const MAIL = { id: 1, name: 'Mail Sorter', description: 'Files mail', guidelines: null, tools: [] };

describe('router', () => {
  it('is built with the router defaults of spec section 9', () => {
    const { router } = createApp({ config: testConfig, auth: signedInAuth });
    expect(router.options).toMatchObject(ROUTER_DEFAULTS);
  });

  it('redirects / to /info', async () => {
    installFakeApi();
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/info'));
  });
});

describe('the protected shell', () => {
  it('shows the access-code page in place, and loads nothing behind it, until the code was accepted', async () => {
    const api = installFakeApi({ 'GET /api/v1/agents/': () => json([MAIL]) });
    const isSignedIn = vi.fn(signedInAuth.isSignedIn);
    const { router } = renderApp('/agents', { accessCode: false, auth: { isSignedIn } });
    expect(await screen.findByText('Please enter the code shared with you')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Cadre' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/agents');
    expect(screen.queryByRole('heading', { name: 'Agents' })).not.toBeInTheDocument();
    expect(api.requests).toEqual([]);
    expect(isSignedIn).not.toHaveBeenCalled();
  });

  it('sends someone who is not signed in to the identity provider, to come back to the page', async () => {
    const api = installFakeApi({ 'GET /api/v1/agents/': () => json([MAIL]) });
    const signInUrl = vi.fn(async (returnTo: string) => `http://app.test/idp/auth?return=${returnTo}`);
    const { router } = renderApp('/agents?q=mail', {
      auth: { isSignedIn: async () => false, signInUrl },
    });
    // The redirect leaves the app: the browser loads the provider's page in place of this one.
    const navigate = vi.spyOn(router, 'navigate').mockResolvedValue();
    await waitFor(() =>
      expect(navigate).toHaveBeenCalledWith(
        expect.objectContaining({
          href: 'http://app.test/idp/auth?return=/agents?q=mail',
          reloadDocument: true,
        }),
      ),
    );
    expect(signInUrl).toHaveBeenCalledWith('/agents?q=mail');
    expect(api.requests).toEqual([]);
  });

  it("shows 'Loading...' while sign-in is checked for longer than the pending delay", async () => {
    installFakeApi({ 'GET /api/v1/agents/': () => json([MAIL]) });
    let answer!: (signedIn: boolean) => void;
    const checked = new Promise<boolean>((resolve) => (answer = resolve));
    renderApp('/agents', { auth: { isSignedIn: () => checked } });
    expect(await screen.findByText('Loading...', {}, { timeout: 3000 })).toBeInTheDocument();
    answer(true);
    expect(await screen.findByRole('cell', { name: 'Mail Sorter' }, { timeout: 3000 })).toBeInTheDocument();
  });
});

describe('a 401 from the API', () => {
  it('is answered once with a silent refresh, after which the refused queries load', async () => {
    let tokenAccepted = false;
    const api = installFakeApi({
      'GET /api/v1/agents/': () =>
        tokenAccepted ? json([MAIL]) : json({ detail: 'Unauthorized', code: 'unauthorized' }, 401),
      'GET /api/v1/services/active': () =>
        tokenAccepted ? json([]) : json({ detail: 'Unauthorized', code: 'unauthorized' }, 401),
    });
    const refresh = vi.fn(async () => {
      tokenAccepted = true;
      return true;
    });
    const forget = vi.fn(async () => {});
    renderApp('/agents', { auth: { refresh, forget } });
    expect(await screen.findByRole('cell', { name: 'Mail Sorter' }, { timeout: 3000 })).toBeInTheDocument();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(forget).not.toHaveBeenCalled();
    // Refused once (not retried as a failure), then fetched again with the new token.
    expect(api.sent('GET /api/v1/agents/')).toHaveLength(2);
  });

  it('goes to sign-in when no new token comes', async () => {
    installFakeApi({
      'GET /api/v1/agents/': () => json({ detail: 'Unauthorized', code: 'unauthorized' }, 401),
    });
    let signedIn = true;
    const forget = vi.fn(async () => {
      signedIn = false;
    });
    const { router } = renderApp('/agents', {
      auth: { isSignedIn: async () => signedIn, refresh: async () => false, forget },
    });
    const navigate = vi.spyOn(router, 'navigate').mockResolvedValue();
    await waitFor(() =>
      expect(navigate).toHaveBeenCalledWith(
        expect.objectContaining({ href: 'http://app.test/idp/auth?return=%2Fagents', reloadDocument: true }),
      ),
    );
    expect(forget).toHaveBeenCalledTimes(1);
  });
});
