import { base64url, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { MOCK_USER_IDENTITY, PUBLIC_ROUTES, registerAuth } from '../src/http/auth.ts';
import type { AccessGate } from '../src/modules/access-code/index.ts';
import type { UsersService } from '../src/modules/users/service.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { admit, bearer, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const AGENTS = '/backend/api/v1/agents/';

describe(`token checks on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp(issuer.env);
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  const list = (headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: AGENTS, headers });

  describe('A1 route inventory', () => {
    it('knows every /backend route, and every route not on the public list answers 401 without a token', async () => {
      const routes = t.app.routeInventory;
      expect(routes.length).toBeGreaterThan(8);
      const publicKeys = new Set<string>(PUBLIC_ROUTES);
      for (const route of routes) {
        const key = `${route.method === 'HEAD' ? 'GET' : route.method} ${route.url}`;
        if (route.public) {
          expect(publicKeys.has(key), `${key} is public but not listed`).toBe(true);
          continue;
        }
        // Fill path parameters with plausible values so the route itself is reached.
        const url = route.url.replace(/:(\w+)/g, (_m, name: string) => (name.endsWith('_id') ? '1' : 'x'));
        const res = await t.app.inject({
          method: route.method as 'GET',
          url,
          payload: ['POST', 'PATCH', 'PUT'].includes(route.method) ? {} : undefined,
        });
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
        // The OpenAI-compatible API answers every error in OpenAI's shape, which its clients read.
        const refusal = route.url.startsWith('/backend/openai/')
          ? {
              error: {
                message: 'Not authenticated',
                type: 'authentication_error',
                param: null,
                code: 'unauthorized',
              },
            }
          : { detail: 'Not authenticated', code: 'unauthorized' };
        if (route.method !== 'HEAD') expect(res.json()).toEqual(refusal);
      }
    });

    it('lists the private routes this module owns and the public ones exactly', () => {
      const keys = t.app.routeInventory.map((r) => `${r.method} ${r.url}${r.public ? ' (public)' : ''}`);
      expect(keys).toEqual(
        expect.arrayContaining([
          'GET /backend/api/v1/public/health/healthcheck (public)',
          'POST /backend/api/v1/public/beta-user-signin (public)',
          'GET /backend/api/v1/agents/',
          'POST /backend/api/v1/agents/',
          'GET /backend/api/v1/agents/:agent_id/agent',
          'PATCH /backend/api/v1/agents/:agent_id',
          'DELETE /backend/api/v1/agents/:agent_id',
          'POST /backend/api/v1/agents/:agent_id/triggers/:trigger_id',
          'POST /backend/api/v1/users/check-user',
          'GET /backend/api/v1/users/me/export',
          'DELETE /backend/api/v1/users/me',
          'POST /backend/api/v1/auth/chainlit-copilot-login',
          'GET /backend/api/v1/api-keys',
          'POST /backend/api/v1/api-keys',
          'DELETE /backend/api/v1/api-keys/:api_key_id',
          'GET /backend/api/v1/services/',
          'GET /backend/api/v1/services/active',
          'GET /backend/api/v1/services/:service_id/actions',
          'POST /backend/api/v1/services/:service_id/register_auth_service',
          'POST /backend/api/v1/services/:service_id/register_api_service',
          'POST /backend/api/v1/services/:service_id/register_noauth_service',
          'DELETE /backend/api/v1/services/:service_id/disconnect_composio_service',
          'POST /backend/api/v1/services/custom_mcp',
          'DELETE /backend/api/v1/services/:service_id',
          'GET /backend/api/v1/public/oauth2/callback/ (public)',
          'GET /backend/api/v1/public/:service_id/composio_auth_redirect/ (public)',
          'POST /backend/api/v1/public/composio-webhook (public)',
        ]),
      );
    });

    it('refuses to start when a route is marked public without being on the list', () => {
      const app = Fastify();
      registerAuth(app, { config: t.config, users: {} as UsersService, gate: {} as AccessGate });
      expect(() => app.get('/backend/api/v1/sneaky', { config: { public: true } }, async () => ({}))).toThrow(
        /PUBLIC_ROUTES/,
      );
      // Public routes outside /backend (the web app, the identity pages) are not this list's concern.
      expect(() =>
        app.get('/runtime-config.json', { config: { public: true } }, async () => ({})),
      ).not.toThrow();
    });
  });

  describe('A2 token matrix', () => {
    const header = (obj: object) => base64url.encode(JSON.stringify(obj));
    const now = () => Math.floor(Date.now() / 1000);
    const claims = () => ({
      iss: issuer.url,
      aud: issuer.audience,
      sub: 'alice',
      scope: 'openid',
      iat: now(),
      exp: now() + 300,
    });

    const cases: [string, () => Promise<Record<string, string>>][] = [
      ['no token', async () => ({})],
      ['not a bearer scheme', async () => ({ authorization: `Basic ${btoa('alice:pw')}` })],
      ['garbage', async () => bearer('not.a.jwt')],
      [
        'bad signature',
        async () => {
          const [h, p] = (await issuer.token({ sub: 'alice' })).split('.');
          return bearer(`${h}.${p}.${base64url.encode('x'.repeat(256))}`);
        },
      ],
      [
        'tampered payload',
        async () => {
          const [h, , s] = (await issuer.token({ sub: 'alice' })).split('.');
          return bearer(`${h}.${header({ ...claims(), sub: 'mallory' })}.${s}`);
        },
      ],
      ['alg none', async () => bearer(`${header({ alg: 'none', typ: 'JWT' })}.${header(claims())}.`)],
      [
        'HS256 signed with the public key',
        async () => {
          const secret = new TextEncoder().encode(JSON.stringify(issuer.publicJwk));
          const token = await new SignJWT(claims())
            .setProtectedHeader({ alg: 'HS256', kid: issuer.publicJwk.kid })
            .sign(secret);
          return bearer(token);
        },
      ],
      [
        'unknown kid (foreign key)',
        async () => bearer(await issuer.token({ sub: 'alice' }, { foreignKey: true })),
      ],
      [
        'foreign jku',
        async () =>
          bearer(
            await issuer.token(
              { sub: 'alice' },
              { foreignKey: true, header: { jku: 'https://attacker.example/jwks.json' } },
            ),
          ),
      ],
      [
        'wrong issuer',
        async () => bearer(await issuer.token({ sub: 'alice' }, { issuer: 'https://evil.example/' })),
      ],
      [
        'issuer without its trailing slash',
        async () => bearer(await issuer.token({ sub: 'alice' }, { issuer: issuer.url.replace(/\/$/, '') })),
      ],
      [
        'wrong audience',
        async () => bearer(await issuer.token({ sub: 'alice' }, { audience: 'https://other-api.example' })),
      ],
      ['expired', async () => bearer(await issuer.token({ sub: 'alice' }, { expiresIn: -120 }))],
      ['not yet valid', async () => bearer(await issuer.token({ sub: 'alice' }, { notBefore: 600 }))],
      [
        'H2: a valid token sent only as a cookie',
        async () => ({ cookie: `access_token=${await issuer.token({ sub: 'alice' })}` }),
      ],
      [
        'A2: issued a day in the future (iat beyond the leeway)',
        async () =>
          bearer(await issuer.token({ sub: 'alice' }, { issuedAt: 24 * 3600, expiresIn: 25 * 3600 })),
      ],
      [
        'ID token (typ JWT, no scope, aud = client id)',
        async () =>
          bearer(
            await issuer.token(
              { sub: 'alice', scope: undefined, nonce: 'n' },
              { typ: 'JWT', audience: 'cadre-web' },
            ),
          ),
      ],
      [
        'ID token with the API audience but no scope',
        async () => bearer(await issuer.token({ sub: 'alice', scope: undefined }, { typ: null })),
      ],
      [
        'token with a foreign typ',
        async () => bearer(await issuer.token({ sub: 'alice' }, { typ: 'logout+jwt' })),
      ],
    ];

    it.each(cases)('refuses %s with 401', async (_label, headers) => {
      const usersBefore = await t.db.kysely.selectFrom('users').select('id').execute();
      const res = await list(await headers());
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: 'Not authenticated', code: 'unauthorized' });
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(await t.db.kysely.selectFrom('users').select('id').execute()).toEqual(usersBefore);
    });

    it('accepts a valid access token, with or without typ, and identifies the user by issuer + subject', async () => {
      await admit(t, bearer(await issuer.token({ sub: 'alice' })));
      // A clock a little ahead at the issuer is within the leeway.
      expect((await list(bearer(await issuer.token({ sub: 'alice' }, { issuedAt: 20 })))).statusCode).toBe(
        200,
      );
      for (const typ of ['at+jwt', 'JWT', 'AT+JWT', null]) {
        const res = await list(bearer(await issuer.token({ sub: 'alice' }, { typ })));
        expect(res.statusCode, String(typ)).toBe(200);
      }
      const rows = await t.db.kysely.selectFrom('users').selectAll().where('subject', '=', 'alice').execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.issuer).toBe(issuer.url);
    });

    it('does not let a token with the same email but another subject reach the data', async () => {
      const alice = bearer(await issuer.token({ sub: 'alice-2', email: 'shared@example.com' }));
      const mallory = bearer(await issuer.token({ sub: 'mallory', email: 'shared@example.com' }));
      await admit(t, alice);
      await admit(t, mallory);
      const created = await t.app.inject({
        method: 'POST',
        url: AGENTS,
        headers: alice,
        payload: { name: 'Private', description: 'Alice only' },
      });
      expect(created.statusCode).toBe(201);
      expect((await list(mallory)).json()).toEqual([]);
      const get = await t.app.inject({
        method: 'GET',
        url: `/backend/api/v1/agents/${created.json().id}/agent`,
        headers: mallory,
      });
      expect(get.statusCode).toBe(404);
    });

    it('logs why a token was refused, never the token', async () => {
      const token = await issuer.token({ sub: 'alice' }, { expiresIn: -120 });
      await list(bearer(token));
      const lines = t.logs.filter((l) => l.includes('access token refused'));
      expect(lines.length).toBeGreaterThan(0);
      expect(t.logs.join('\n')).not.toContain(token.split('.')[2]);
    });
  });
});

describe(`DISABLE_AUTH on ${testDatabaseKind()}`, () => {
  let t: TestApp;
  afterEach(async () => {
    await t?.close();
  });

  it('makes every request the mock user', async () => {
    t = await createTestApp({ DISABLE_AUTH: 'true' });
    const me = await t.app.inject({ method: 'POST', url: '/backend/api/v1/users/check-user' });
    expect(me.statusCode).toBe(200);
    // docs/security.md names the mock user's issuer and subject; its profile is the code's choice.
    expect(me.json()).toMatchObject({
      issuer: 'urn:cadre:mock',
      subject: 'mock-user',
      name: MOCK_USER_IDENTITY.name,
      email: MOCK_USER_IDENTITY.email,
    });
    const res = await t.app.inject({ method: 'GET', url: AGENTS, headers: bearer('anything') });
    expect(res.statusCode).toBe(200);
  });
});

describe(`remote key source on ${testDatabaseKind()}`, () => {
  it('fetches the JWKS once and reuses it across requests', async () => {
    const issuer = await startTestIssuer();
    const t = await createTestApp(issuer.env);
    try {
      const token = await issuer.token({ sub: 'carol' });
      await admit(t, bearer(token));
      for (let i = 0; i < 5; i++)
        expect((await t.app.inject({ method: 'GET', url: AGENTS, headers: bearer(token) })).statusCode).toBe(
          200,
        );
      expect(issuer.jwksFetches).toBe(1);
    } finally {
      await t.close();
      await issuer.close();
    }
  });

  it('answers 401 (not 500) when the issuer cannot be reached', async () => {
    const issuer = await startTestIssuer();
    const t = await createTestApp(issuer.env);
    try {
      const token = await issuer.token({ sub: 'dave' });
      await issuer.close();
      const res = await t.app.inject({ method: 'GET', url: AGENTS, headers: bearer(token) });
      expect(res.statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});
