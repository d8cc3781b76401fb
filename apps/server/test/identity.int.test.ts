import { Writable } from 'node:stream';
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ACCESS_TOKEN_ALGORITHMS } from '../src/http/auth.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';
import { accessCodeOf } from './support/test-issuer.ts';
import {
  authorize,
  authorizeUrl,
  Browser,
  exchangeCode,
  pkcePair,
  tokenRequest,
  uidFrom,
} from './support/oidc-flow.ts';

let t: TestApp;
let host: string;
const password = 'correct horse battery';
/** The clock of the sign-in limits (the tests move it), and the waits failed sign-ins asked for. */
const clock = { at: Date.parse('2030-01-01T09:05:00Z') };
const waits: number[] = [];

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      identity: {
        now: () => clock.at,
        sleep: async (ms) => {
          waits.push(ms);
        },
      },
    },
  );
  host = new URL(t.config.publicUrl).host;
});
afterAll(async () => {
  await t.close();
});

async function jwks(app = t.app): Promise<JSONWebKeySet> {
  const response = await app.inject({ method: 'GET', url: '/idp/jwks', headers: { host } });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function verifyAccessToken(token: string, keySet: JSONWebKeySet) {
  return jwtVerify(token, createLocalJWKSet(keySet), {
    issuer: t.config.auth.issuer,
    audience: t.config.auth.audience,
    algorithms: ACCESS_TOKEN_ALGORITHMS,
  });
}

describe('built-in identity provider', () => {
  it('publishes discovery for the configured issuer with S256 PKCE only', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/idp/.well-known/openid-configuration',
      headers: { host },
    });
    expect(response.statusCode).toBe(200);
    const discovery = response.json();
    expect(discovery.issuer).toBe('http://cadre.test/idp');
    expect(discovery.authorization_endpoint).toBe('http://cadre.test/idp/auth');
    expect(discovery.token_endpoint).toBe('http://cadre.test/idp/token');
    expect(discovery.end_session_endpoint).toBe('http://cadre.test/idp/session/end');
    expect(discovery.code_challenge_methods_supported).toEqual(['S256']);
    expect(discovery.response_types_supported).toEqual(['code']);
    const keys = await jwks();
    expect(keys.keys.length).toBeGreaterThan(0);
    for (const key of keys.keys) expect(key).not.toHaveProperty('d');
  });

  it('signs up, signs in and issues a JWT access token the API can verify', async () => {
    const signedIn = await authorize(
      t.app,
      t.config,
      { email: 'Alice@Example.com', password, name: 'Alice Smith' },
      { signUp: true },
    );
    const tokens = await exchangeCode(t.app, t.config, signedIn);
    expect(tokens.status).toBe(200);
    const { payload, protectedHeader } = await verifyAccessToken(tokens.body.access_token!, await jwks());
    expect(protectedHeader.alg).toBe('RS256');
    expect(['at+jwt', 'JWT', undefined]).toContain(protectedHeader.typ);
    expect(payload.scope).toBe('openid profile email');
    expect(payload.client_id).toBe(t.config.auth.clientId);
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(15 * 60);
    expect(tokens.body.refresh_token).toBeTruthy();

    const idToken = decodeJwt(tokens.body.id_token!);
    expect(idToken.sub).toBe(payload.sub);
    expect(idToken.email).toBe('alice@example.com');
    expect(idToken.name).toBe('Alice Smith');
    expect(String(idToken.picture)).toMatch(/^http:\/\/cadre\.test\/idp\/avatars\//);

    // A second sign-in with the password (new browser, different case of email) reaches the same subject.
    const again = await authorize(t.app, t.config, { email: 'ALICE@example.com', password });
    const second = await exchangeCode(t.app, t.config, again);
    expect(decodeJwt(second.body.access_token!).sub).toBe(payload.sub);
  });

  it('refuses an authorization request without PKCE, with plain, or with an unregistered redirect URI', async () => {
    const browser = new Browser(t.app, host);
    const refused = async (url: string) => {
      const response = await browser.request('GET', url);
      const location = String(response.headers.location ?? '');
      // Either an error page at the provider or an error sent back to the registered redirect URI.
      if (response.statusCode === 303 || response.statusCode === 302) {
        expect(location).not.toContain('/idp/interaction/');
        expect(new URL(location, 'http://cadre.test').searchParams.get('error')).toBeTruthy();
      } else {
        expect(response.statusCode).toBeGreaterThanOrEqual(400);
      }
      return response;
    };
    await refused(authorizeUrl(t.config));
    await refused(
      authorizeUrl(t.config, { code_challenge: pkcePair().challenge, code_challenge_method: 'plain' }),
    );
    const wrongRedirect = await refused(
      authorizeUrl(t.config, {
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        redirect_uri: 'https://evil.example/callback',
      }),
    );
    // An unregistered redirect URI is never redirected to.
    expect(String(wrongRedirect.headers.location ?? '')).not.toContain('evil.example');
    expect(wrongRedirect.statusCode).toBe(400);
    const trailingSlash = await refused(
      authorizeUrl(t.config, {
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        redirect_uri: `${t.config.auth.redirectUri}/extra`,
      }),
    );
    expect(trailingSlash.statusCode).toBe(400);
  });

  it('refuses a token request with a wrong or missing code verifier', async () => {
    const signedIn = await authorize(
      t.app,
      t.config,
      { email: 'bob@example.com', password, name: 'Bob' },
      { signUp: true },
    );
    const wrong = await tokenRequest(t.app, t.config, {
      grant_type: 'authorization_code',
      code: signedIn.code,
      code_verifier: pkcePair().verifier,
      redirect_uri: t.config.auth.redirectUri,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    const missing = await tokenRequest(t.app, t.config, {
      grant_type: 'authorization_code',
      code: signedIn.code,
      redirect_uri: t.config.auth.redirectUri,
    });
    expect(missing.status).toBe(400);
  });

  it('refuses an audience other than the API', async () => {
    const browser = new Browser(t.app, host);
    const response = await browser.request(
      'GET',
      authorizeUrl(t.config, {
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        audience: 'https://other-api.example',
      }),
    );
    expect(new URL(String(response.headers.location), 'http://cadre.test').searchParams.get('error')).toBe(
      'invalid_target',
    );
  });

  it('rotates refresh tokens and revokes the family when a used one is replayed (R9)', async () => {
    const signedIn = await authorize(
      t.app,
      t.config,
      { email: 'carol@example.com', password, name: 'Carol' },
      { signUp: true },
    );
    const first = await exchangeCode(t.app, t.config, signedIn);
    const refresh1 = first.body.refresh_token!;
    const second = await tokenRequest(t.app, t.config, {
      grant_type: 'refresh_token',
      refresh_token: refresh1,
    });
    expect(second.status).toBe(200);
    const refresh2 = second.body.refresh_token!;
    expect(refresh2).not.toBe(refresh1);
    await verifyAccessToken(second.body.access_token!, await jwks());

    const replay = await tokenRequest(t.app, t.config, {
      grant_type: 'refresh_token',
      refresh_token: refresh1,
    });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    // The replay revoked the whole grant: the newest refresh token is dead too.
    const afterReplay = await tokenRequest(t.app, t.config, {
      grant_type: 'refresh_token',
      refresh_token: refresh2,
    });
    expect(afterReplay.status).toBe(400);
    expect(afterReplay.body.error).toBe('invalid_grant');
  });

  it('shows clear errors on sign-up and never stores a short password', async () => {
    const browser = new Browser(t.app, host);
    await browser.enterAccessCode(await accessCodeOf(t.app, t.config));
    const start = await browser.request(
      'GET',
      authorizeUrl(t.config, { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }),
    );
    const uid = uidFrom(String(start.headers.location));
    const page = await browser.request('GET', `/idp/interaction/${uid}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<label for="email">Email</label>');
    expect(page.body).toContain('<label for="password">Password</label>');
    // No inline script: the one script is the theme's, from this server (the CSP allows no other).
    expect(page.body.match(/<script[^>]*>/g)).toEqual(['<script src="/idp/assets/theme.js">']);

    const short = await browser.request('POST', `/idp/interaction/${uid}/signup`, {
      name: '<img src=x onerror=alert(1)>',
      email: 'dave@example.com',
      password: 'short',
    });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('role="alert"');
    expect(short.body).toContain('Use at least 10 characters.');
    expect(short.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(short.body).not.toContain('<img src=x');
    const stored = await t.db.kysely
      .selectFrom('idp_accounts')
      .select('email')
      .where('email', '=', 'dave@example.com')
      .execute();
    expect(stored).toEqual([]);

    const taken = await browser.request('POST', `/idp/interaction/${uid}/signup`, {
      name: 'Alice again',
      email: 'alice@example.com',
      password,
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.body).toContain('An account with this email already exists.');

    const hashes = await t.db.kysely.selectFrom('idp_accounts').select('password_hash').execute();
    for (const { password_hash } of hashes) {
      expect(password_hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
      expect(password_hash).not.toContain(password);
    }
  });

  it('locks an account out with 429 and Retry-After after repeated failures', async () => {
    // docs/security.md: 5 attempts per account in 15 minutes, each failure answered after a delay
    // that doubles from 100 ms. The clock stands at 09:05, inside the 09:00-09:15 window.
    await authorize(t.app, t.config, { email: 'erin@example.com', password, name: 'Erin' }, { signUp: true });
    const browser = new Browser(t.app, host, '10.0.0.7');
    const start = await browser.request(
      'GET',
      authorizeUrl(t.config, { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }),
    );
    const uid = uidFrom(String(start.headers.location));
    const statuses: number[] = [];
    waits.length = 0;
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const response = await browser.request('POST', `/idp/interaction/${uid}/login`, {
        email: 'erin@example.com',
        password: 'wrong password!',
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 401) {
        expect(response.body).toContain('role="alert"');
        expect(response.body).toContain('The email or password is incorrect.');
      }
      if (response.statusCode === 429) {
        expect(Number(response.headers['retry-after'])).toBe(10 * 60);
        expect(response.body).toContain('Too many sign-in attempts');
      }
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(waits).toEqual([100, 200, 400, 800, 1600]);
    // Even the right password is refused while the account is locked.
    const signIn = () =>
      browser.request('POST', `/idp/interaction/${uid}/login`, { email: 'erin@example.com', password });
    expect((await signIn()).statusCode).toBe(429);
    clock.at += 9 * 60_000;
    expect((await signIn()).statusCode).toBe(429);
    // A new window unlocks the account.
    clock.at += 60_000;
    expect((await signIn()).statusCode).toBe(303);
  });

  it('ends the provider session through RP-initiated logout and returns to the logout redirect', async () => {
    const signedIn = await authorize(
      t.app,
      t.config,
      { email: 'frank@example.com', password, name: 'Frank' },
      { signUp: true },
    );
    const tokens = await exchangeCode(t.app, t.config, signedIn);
    const { browser } = signedIn;
    const query = new URLSearchParams({
      id_token_hint: tokens.body.id_token!,
      post_logout_redirect_uri: t.config.auth.logoutRedirectUri,
      client_id: t.config.auth.clientId,
    });
    const confirm = await browser.request('GET', `/idp/session/end?${query.toString()}`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Sign out of Cadre?');
    const action = /action="([^"]+)"/.exec(confirm.body)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.body)?.[1] ?? '';
    const done = await browser.request('POST', new URL(action, 'http://cadre.test').pathname, {
      xsrf,
      logout: 'yes',
    });
    expect(done.statusCode).toBe(303);
    expect(new URL(String(done.headers.location)).href).toBe(new URL(t.config.auth.logoutRedirectUri).href);

    // The session is gone: a new authorization request asks to sign in again.
    const next = await browser.request(
      'GET',
      authorizeUrl(t.config, { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }),
    );
    expect(String(next.headers.location)).toContain('/idp/interaction/');
    const page = await browser.request('GET', String(next.headers.location));
    expect(page.body).toContain('<h1>Sign in</h1>');
  });

  it('stores sessions and tokens in the database, not in memory', async () => {
    const kinds = await t.db.kysely.selectFrom('idp_payloads').select('kind').distinct().execute();
    const names = kinds.map((k) => k.kind);
    expect(names).toEqual(expect.arrayContaining(['Session', 'Grant', 'RefreshToken', 'Interaction']));
  });

  it('shares keys between instances on the same database', async () => {
    const signedIn = await authorize(
      t.app,
      t.config,
      { email: 'gina@example.com', password, name: 'Gina' },
      { signUp: true },
    );
    const tokens = await exchangeCode(t.app, t.config, signedIn);
    const quiet = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    const second = await buildApp({
      config: t.config,
      db: t.db,
      webDistDir: `${t.dataDir}/no-web`,
      logStream: quiet,
    });
    try {
      await second.ready();
      const keysOnSecond = await jwks(second);
      await verifyAccessToken(tokens.body.access_token!, keysOnSecond);
      // The second instance continues the same grant: its refresh works there.
      const refreshed = await second.inject({
        method: 'POST',
        url: '/idp/token',
        headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          client_id: t.config.auth.clientId,
          grant_type: 'refresh_token',
          refresh_token: tokens.body.refresh_token!,
        }).toString(),
      });
      expect(refreshed.statusCode).toBe(200);
      await verifyAccessToken(refreshed.json().access_token, await jwks());
    } finally {
      await second.close();
    }
  });
});

describe('sign-up limit per client address (IDP_SIGNUPS_PER_HOUR)', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ IDP_SIGNUPS_PER_HOUR: '2' });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('answers 429 with Retry-After once an address has created the configured number of accounts', async () => {
    const limitedHost = new URL(limited.config.publicUrl).host;
    const signUpFrom = async (address: string, email: string) => {
      const browser = new Browser(limited.app, limitedHost, address);
      await browser.enterAccessCode(await accessCodeOf(limited.app, limited.config));
      const start = await browser.request(
        'GET',
        authorizeUrl(limited.config, { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }),
      );
      const uid = uidFrom(String(start.headers.location));
      return browser.request('POST', `/idp/interaction/${uid}/signup`, {
        name: 'Limit Test',
        email,
        password,
      });
    };
    expect((await signUpFrom('10.0.0.21', 'one@example.com')).statusCode).toBe(303);
    expect((await signUpFrom('10.0.0.21', 'two@example.com')).statusCode).toBe(303);
    const third = await signUpFrom('10.0.0.21', 'three@example.com');
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await signUpFrom('10.0.0.22', 'four@example.com')).statusCode).toBe(303);
    const emails = await limited.db.kysely.selectFrom('idp_accounts').select('email').execute();
    expect(emails.map((row) => row.email).sort()).toEqual([
      'four@example.com',
      'one@example.com',
      'two@example.com',
    ]);
  });
});
