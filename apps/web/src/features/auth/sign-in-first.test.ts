import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app';
import { signedInAuth, testConfig } from '../../test/render';
import { PASSWORD_SIGNED_IN_KEY } from './access-code';
import { mayGoToSignInFirst, showsAccessCodeFirst } from './first-visit';
import { safeReturnPath } from './return-to';
import { sendToSignInFirst } from './sign-in-first';

const at = (path: string) => {
  const url = new URL(path, 'http://app.test');
  return {
    pathname: url.pathname,
    search: url.search,
    hash: url.hash,
    assign: vi.fn(),
  } as unknown as Location;
};

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

describe('going to sign-in before the app loads', () => {
  // Every page of the route tree, the shell's and the others, with made-up ids.
  const PATHS = [
    '/',
    '/info',
    '/agents',
    '/agents/create',
    '/agents/7/edit',
    '/agents/7/chat',
    '/agents/7/chat/thread-1',
    '/services',
    '/services/7/actions',
    '/usage',
    '/api-keys',
    '/admin',
    '/debug_info',
    '/copilot',
    '/public/demosRedirect',
    '/no-such-page',
    '/agents/7/no-such-page',
  ];

  it('names every page of the route tree, so a new page is checked by the tests below', () => {
    const { router } = createApp({ config: testConfig, auth: signedInAuth });
    const pages = Object.keys(router.routesByPath)
      // `$id` a path parameter, `{-$id}` an optional one.
      .map((path) =>
        path.replace(/\{-\$[a-zA-Z]+\}|\$[a-zA-Z]+/g, (p) => (p.includes('thread') ? 'thread-1' : '7')),
      )
      .map((path) => (path.length > 1 ? path.replace(/\/$/, '') : path));
    for (const page of pages) expect(PATHS, `${page} is missing from PATHS`).toContain(page);
  });

  it("covers exactly the paths the shell's guard covers, by the router's own matching", () => {
    window.localStorage.setItem(PASSWORD_SIGNED_IN_KEY, 'true');
    const { router } = createApp({ config: testConfig, auth: signedInAuth });
    for (const path of PATHS) {
      const guarded = router.matchRoutes(path).some((match) => match.routeId === '/_layout');
      expect({ path, guarded: mayGoToSignInFirst(at(path)) }).toEqual({ path, guarded });
    }
  });

  it("shows the access-code page alone on exactly the shell's pages, until the code is passed", () => {
    const { router } = createApp({ config: testConfig, auth: signedInAuth });
    for (const path of PATHS) {
      const guarded = router.matchRoutes(path).some((match) => match.routeId === '/_layout');
      expect({ path, gate: showsAccessCodeFirst(at(path)) }).toEqual({ path, gate: guarded });
    }
    window.localStorage.setItem(PASSWORD_SIGNED_IN_KEY, 'true');
    expect(showsAccessCodeFirst(at('/agents'))).toBe(false);
  });

  it("comes back after sign-in to every page of the shell's guard", () => {
    const { router } = createApp({ config: testConfig, auth: signedInAuth });
    const guarded = PATHS.filter((path) =>
      router.matchRoutes(path).some((match) => match.routeId === '/_layout'),
    );
    expect(guarded.length).toBeGreaterThan(10);
    for (const path of guarded) expect(safeReturnPath(path)).toBe(path);
  });

  it('leaves the access-code page and a silent sign-in after a reload to the app', () => {
    expect(mayGoToSignInFirst(at('/agents'))).toBe(false);
    window.localStorage.setItem(PASSWORD_SIGNED_IN_KEY, 'true');
    expect(mayGoToSignInFirst(at('/agents'))).toBe(true);
    window.sessionStorage.setItem('cadre:signed-in', 'true');
    expect(mayGoToSignInFirst(at('/agents'))).toBe(false);
  });

  it("goes to the provider's sign-in address, coming back to the page asked for", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({ issuer: 'http://idp.test', authorization_endpoint: 'http://idp.test/auth' }),
      ),
    );
    const config = { ...testConfig, disableAuth0: false, auth0Domain: 'http://idp.test' };
    const location = at('/agents?q=mail');
    expect(await sendToSignInFirst(config, location)).toBe(true);
    const url = new URL(vi.mocked(location.assign).mock.calls[0]![0] as string);
    expect(`${url.origin}${url.pathname}`).toBe('http://idp.test/auth');
    const stored = JSON.parse(window.localStorage.getItem(`oidc.${url.searchParams.get('state')}`)!);
    expect(stored.data).toEqual({ returnTo: '/agents?q=mail' });
  });

  it('with sign-in switched off, leaves the visit to the app', async () => {
    const location = at('/agents');
    expect(await sendToSignInFirst({ ...testConfig, disableAuth0: true }, location)).toBe(false);
    expect(location.assign).not.toHaveBeenCalled();
  });
});
