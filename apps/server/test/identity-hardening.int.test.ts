import { silentSignInUri } from '@cadre/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorize,
  authorizeUrl,
  Browser,
  exchangeCode,
  pkcePair,
  tokenRequest,
  uidFrom,
} from './support/oidc-flow.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * The built-in provider's weaknesses found beside the failing tests (security.md "Weaknesses",
 * ASVS 25 and I4): userinfo, PAR, exact redirect URIs, CORS preflights, lockout.
 */
let t: TestApp;
let host: string;
const password = 'correct horse battery';
const clock = { at: Date.parse('2030-01-01T09:05:00Z') };
const waits: number[] = [];

beforeAll(async () => {
  t = await createTestApp(
    {},
    { identity: { now: () => clock.at, sleep: async (ms) => void waits.push(ms) } },
  );
  host = new URL(t.config.publicUrl).host;
});
afterAll(async () => {
  await t?.close();
});

const discovery = async () =>
  (await t.app.inject({ url: '/idp/.well-known/openid-configuration', headers: { host } })).json();

describe('built-in identity provider, hardened', () => {
  it('I4: answers userinfo (/idp/me) with the claims the access token’s scopes grant', async () => {
    const signedIn = await authorize(
      t.app,
      t.config,
      { email: 'uma@example.com', password, name: 'Uma Info' },
      { signUp: true },
    );
    const tokens = await exchangeCode(t.app, t.config, signedIn);
    expect((await discovery()).userinfo_endpoint).toBe('http://cadre.test/idp/me');
    const me = await t.app.inject({
      method: 'GET',
      url: '/idp/me',
      headers: { host, authorization: `Bearer ${tokens.body.access_token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.headers['cache-control']).toBe('no-store');
    expect(me.json()).toEqual({
      sub: expect.any(String),
      name: 'Uma Info',
      email: 'uma@example.com',
      email_verified: false,
      picture: expect.stringMatching(/^http:\/\/cadre\.test\/idp\/avatars\/.+\.svg$/),
    });
    const posted = await t.app.inject({
      method: 'POST',
      url: '/idp/me',
      headers: { host, authorization: `Bearer ${tokens.body.access_token}` },
    });
    expect(posted.json()).toEqual(me.json());

    for (const authorization of [undefined, 'Bearer not.a.token', `Bearer ${tokens.body.id_token}`]) {
      const refused = await t.app.inject({
        method: 'GET',
        url: '/idp/me',
        headers: { host, ...(authorization ? { authorization } : {}) },
      });
      expect(refused.statusCode, String(authorization)).toBe(401);
      expect(refused.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(refused.body).not.toContain('uma@example.com');
    }
  });

  it('I4: does not advertise pushed authorization requests, which it does not serve', async () => {
    expect(await discovery()).not.toHaveProperty('pushed_authorization_request_endpoint');
    expect((await t.app.inject({ method: 'POST', url: '/idp/request', headers: { host } })).statusCode).toBe(
      404,
    );
  });

  /** The browser starts an authorization with PKCE at this redirect URI. */
  const authorizeAt = (browser: Browser, redirect_uri: string) =>
    browser.request(
      'GET',
      authorizeUrl(t.config, {
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        redirect_uri,
      }),
    );

  it("accepts the web app's silent sign-in page as a redirect URI, and nothing beside it", async () => {
    const browser = new Browser(t.app, host);
    const start = (redirectUri: string) => authorizeAt(browser, redirectUri);
    const silent = silentSignInUri(t.config.auth.redirectUri);
    expect((await start(silent)).statusCode).toBe(303);
    expect((await start(silent.replace('silent-sign-in', 'other'))).statusCode).toBe(400);
  });

  it('I4: compares redirect and logout URIs as exact strings', async () => {
    const browser = new Browser(t.app, host);
    const registered = t.config.auth.redirectUri;
    const start = (redirectUri: string) => authorizeAt(browser, redirectUri);
    expect((await start(registered)).statusCode).toBe(303);
    for (const variant of [
      `${registered}/`,
      registered.toUpperCase(),
      registered.replace('cadre.test', 'CADRE.test'),
      registered.replace('cadre.test', 'cadre.test:80'),
      `${registered}?x=1`,
      `${registered}#x`,
    ]) {
      const response = await start(variant);
      expect(response.statusCode, variant).toBe(400);
      expect(String(response.headers.location ?? ''), variant).toBe('');
    }
    for (const variant of [`${t.config.auth.logoutRedirectUri}/`, 'http://cadre.test/elsewhere']) {
      const logout = await browser.request(
        'GET',
        `/idp/session/end?client_id=${t.config.auth.clientId}&post_logout_redirect_uri=${encodeURIComponent(variant)}`,
      );
      expect(logout.statusCode, variant).toBe(400);
    }
  });

  it('H1: answers a CORS preflight with an Origin only for the app’s own origins', async () => {
    const preflight = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: '/idp/token',
        headers: {
          host,
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    for (const origin of ['https://evil.example', 'null', 'http://cadre.test.evil.example']) {
      const response = await preflight(origin);
      expect(response.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(response.headers['access-control-allow-credentials'], origin).toBeUndefined();
    }
    const own = await preflight('http://cadre.test');
    expect(own.headers['access-control-allow-origin']).toBe('http://cadre.test');
    // The API sends no CORS headers to anyone.
    for (const method of ['OPTIONS', 'GET'] as const) {
      const api = await t.app.inject({
        method,
        url: '/backend/api/v1/agents/',
        headers: { host, origin: 'https://evil.example', 'access-control-request-method': 'GET' },
      });
      expect(api.headers['access-control-allow-origin'], method).toBeUndefined();
    }
  });

  it('W2: a stranger who knows an email cannot lock its owner out; their own address is locked', async () => {
    await authorize(
      t.app,
      t.config,
      { email: 'owner@example.com', password, name: 'Owner' },
      { signUp: true },
    );
    const signIn = async (address: string, attempt: string) => {
      const browser = new Browser(t.app, host, address);
      const start = await browser.request(
        'GET',
        authorizeUrl(t.config, { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }),
      );
      const uid = uidFrom(String(start.headers.location));
      return browser.request('POST', `/idp/interaction/${uid}/login`, {
        email: 'owner@example.com',
        password: attempt,
      });
    };
    waits.length = 0;
    const strangers: number[] = [];
    for (let i = 0; i < 7; i += 1) strangers.push((await signIn('10.66.0.1', 'guess!guess!')).statusCode);
    // Five tries per account from one address, then 429 for that address only.
    expect(strangers).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // From a second address the stranger is slowed down further, not let through.
    expect((await signIn('10.66.0.2', 'guess!guess!')).statusCode).toBe(401);
    expect(waits).toEqual([100, 200, 400, 800, 1600, 3200]);
    // The owner, from their own address, signs in at once with the right password.
    waits.length = 0;
    expect((await signIn('10.66.0.3', password)).statusCode).toBe(303);
    expect(waits).toEqual([]);
    // The stranger's address stays locked for the window.
    expect((await signIn('10.66.0.1', password)).statusCode).toBe(429);
  });

  it('A4: sign-out ends every refresh token, even one that asked for offline_access (W3)', async () => {
    const signedIn = await authorize(
      t.app,
      t.config,
      { email: 'olga@example.com', password, name: 'Olga' },
      { signUp: true, params: { scope: 'openid profile email offline_access', prompt: 'consent' } },
    );
    const tokens = await exchangeCode(t.app, t.config, signedIn);
    expect(tokens.status).toBe(200);
    expect(tokens.body.scope).toBe('openid profile email');
    const query = new URLSearchParams({
      id_token_hint: tokens.body.id_token!,
      post_logout_redirect_uri: t.config.auth.logoutRedirectUri,
      client_id: t.config.auth.clientId,
    });
    const confirm = await signedIn.browser.request('GET', `/idp/session/end?${query.toString()}`);
    const action = /action="([^"]+)"/.exec(confirm.body)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.body)?.[1] ?? '';
    const done = await signedIn.browser.request('POST', new URL(action, 'http://cadre.test').pathname, {
      xsrf,
      logout: 'yes',
    });
    expect(done.statusCode).toBe(303);
    const refreshed = await tokenRequest(t.app, t.config, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token!,
    });
    expect(refreshed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('R9: the refresh token of a signed-in user keeps working', async () => {
    const signedIn = await authorize(t.app, t.config, { email: 'uma@example.com', password });
    const tokens = await exchangeCode(t.app, t.config, signedIn);
    const refreshed = await tokenRequest(t.app, t.config, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token!,
    });
    expect(refreshed.status).toBe(200);
  });
});
