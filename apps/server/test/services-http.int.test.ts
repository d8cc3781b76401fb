import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signWebhook } from '../src/security/standard-webhooks.ts';
import { startFakeServer, type FakeServer } from './support/fake-http.ts';
import { startMcpServer, type TestMcpServer } from './support/mcp-server.ts';
import { startGithubOAuthServer, type GithubOAuthServer } from './support/oauth2-server.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

/**
 * The services calls of spec section 7 over HTTP, with real tokens from a test issuer: each auth
 * scheme (no auth, API key, OAuth2 against a real authorization server), the error answers, the
 * two-user matrix, the public callbacks and the Composio webhook (J1–J3).
 */

const API = '/backend/api/v1';
const CANARY = `sk-canary-${crypto.randomUUID()}`;
const WEBHOOK_SECRET = 'whsec-services-http-test';
const COMPOSIO_KEY = `sk-canary-composio-${crypto.randomUUID()}`;

interface Service {
  id: number;
  name: string;
  description: string;
  logo: string | null;
  status: 'ACTIVE' | 'INACTIVE';
  auth_schemes: string[];
  last_used_at: string | null;
  last_error: { message: string; at: string } | null;
}

describe(`services over HTTP on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let oauth: GithubOAuthServer;
  let brave: FakeServer;
  let composio: FakeServer;
  let mcp: TestMcpServer;
  let t: TestApp;
  let alice: Record<string, string>;
  let bob: Record<string, string>;
  const composioAccounts = new Set<string>();
  // The keys the fake Brave accepts; a test revokes one by deleting it.
  const braveKeys = new Set([CANARY]);

  beforeAll(async () => {
    issuer = await startTestIssuer();
    oauth = await startGithubOAuthServer();
    mcp = await startMcpServer();
    brave = await startFakeServer((req) => {
      const key = String(req.headers['x-subscription-token'] ?? '');
      if (!braveKeys.has(key)) {
        // Like many APIs, the error names the key it refused: it must never reach the caller.
        return { status: 401, json: { error: `invalid subscription token ${key}` } };
      }
      return {
        json: { web: { results: [{ title: 'Cadre', url: 'https://cadre.test/', description: 'Agents' }] } },
      };
    });
    // The Composio endpoints an API-key connection and its revocation use.
    composio = await startFakeServer((req) => {
      if (req.headers['x-api-key'] !== COMPOSIO_KEY)
        return { status: 401, json: { error: { message: 'no' } } };
      const p = req.path.replace(/^\/api\/v3/, '');
      if (req.method === 'GET' && p === '/toolkits')
        return {
          json: {
            items: [
              {
                slug: 'serpapi',
                name: 'SerpApi',
                meta: { description: 'Search API' },
                auth_schemes: ['API_KEY'],
              },
            ],
            next_cursor: null,
          },
        };
      if (req.method === 'GET' && p === '/tools') return { json: { items: [], next_cursor: null } };
      if (req.method === 'GET' && p === '/auth_configs') return { json: { items: [] } };
      if (req.method === 'POST' && p === '/auth_configs')
        return { json: { auth_config: { id: 'ac_serpapi' } } };
      if (req.method === 'POST' && p === '/connected_accounts') {
        const id = `ca_${composioAccounts.size + 1}_${crypto.randomUUID().slice(0, 8)}`;
        composioAccounts.add(id);
        return {
          status: 201,
          json: { id, connectionData: { authScheme: 'API_KEY', val: { status: 'ACTIVE' } } },
        };
      }
      const account = /^\/connected_accounts\/([^/]+)$/.exec(p);
      if (account && req.method === 'DELETE') {
        composioAccounts.delete(account[1]!);
        return { json: { success: true } };
      }
      return { status: 404, json: { error: { message: `no route ${req.method} ${p}` } } };
    });
  });
  afterAll(async () => {
    await Promise.all([issuer?.close(), oauth?.close(), mcp?.close(), brave?.close(), composio?.close()]);
  });
  beforeEach(async () => {
    t = await createTestApp({
      ...issuer.env,
      ...oauth.env,
      EGRESS_ALLOW_PRIVATE: '127.0.0.1',
      BUILTIN_BRAVE_SEARCH_URL: brave.url,
      COMPOSIO_API_KEY: COMPOSIO_KEY,
      COMPOSIO_BASE_URL: composio.url,
      COMPOSIO_WEBHOOK_SECRET: WEBHOOK_SECRET,
    });
    // The workspace's admin is someone else, so Alice and Bob may delete their own accounts.
    await signInAs(t, issuer, { sub: 'admin' });
    ({ auth: alice } = await signInAs(t, issuer, { sub: 'alice', email: 'alice@example.test' }));
    ({ auth: bob } = await signInAs(t, issuer, { sub: 'bob', email: 'bob@example.test' }));
  });
  afterEach(async () => {
    await t?.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: unknown,
  ) => t.app.inject({ method, url: `${API}${url}`, headers, payload: payload as object | undefined });
  const services = async (who: Record<string, string>) => {
    const res = await call('GET', '/services/', who);
    expect(res.statusCode).toBe(200);
    return res.json<Service[]>();
  };
  const byName = async (name: string, who = alice) => {
    const found = (await services(who)).find((s) => s.name === name);
    if (!found) throw new Error(`no service ${name}`);
    return found;
  };
  const actionOf = (serviceId: number, name: string) =>
    t.db.kysely
      .selectFrom('actions')
      .select('id')
      .where('service_id', '=', serviceId)
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
  const userId = async (sub: string) =>
    (await t.db.kysely.selectFrom('users').select('id').where('subject', '=', sub).executeTakeFirstOrThrow())
      .id;
  const auditActions = async () =>
    (
      await t.db.kysely
        .selectFrom('audit_events')
        .select(['action', 'object_id', 'detail'])
        .orderBy('id')
        .execute()
    ).filter((e) => e.action.startsWith('connection.'));

  it('NO_AUTH: lists, registers, shows the tools, refuses the wrong scheme and disconnects', async () => {
    const calculator = await byName('Calculator');
    expect(calculator).toMatchObject({ status: 'INACTIVE', auth_schemes: ['NO_AUTH'] });
    expect(calculator.description.length).toBeGreaterThan(10);
    expect((await call('GET', '/services/active', alice)).json()).toEqual([]);

    for (const wrong of ['register_api_service', 'register_auth_service']) {
      const res = await call('POST', `/services/${calculator.id}/${wrong}`, alice, { api_key: 'k' });
      expect(res.statusCode, wrong).toBe(422);
      expect(res.json().detail[0]).toMatchObject({
        loc: ['path', 'service_id'],
        type: 'auth_scheme_mismatch',
      });
    }

    const registered = await call('POST', `/services/${calculator.id}/register_noauth_service`, alice);
    expect(registered.statusCode).toBe(200);
    expect(registered.json()).toEqual({ redirectUrl: null, connectionStatus: 'ACTIVE' });
    const list = await services(alice);
    // Active first, then by name.
    expect(list[0]).toMatchObject({ id: calculator.id, status: 'ACTIVE' });
    expect(list.slice(1).every((s) => s.status === 'INACTIVE')).toBe(true);
    expect((await call('GET', '/services/active', alice)).json()).toEqual([
      { ...calculator, status: 'ACTIVE' },
    ]);

    const actions = await call('GET', `/services/${calculator.id}/actions`, alice);
    expect(actions.statusCode).toBe(200);
    const tools = actions.json<{ id: number; name: string; app_name: string; display_name: string }[]>();
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) {
      expect(Object.keys(tool).sort()).toEqual([
        'app_name',
        'description',
        'display_name',
        'id',
        'logo',
        'name',
      ]);
      expect(tool.app_name).toBe('Calculator');
    }

    const disconnected = await call(
      'DELETE',
      `/services/${calculator.id}/disconnect_composio_service`,
      alice,
    );
    expect(disconnected.statusCode).toBe(204);
    expect(disconnected.body).toBe('');
    expect((await byName('Calculator')).status).toBe('INACTIVE');
    // Nothing left to disconnect.
    expect(
      (await call('DELETE', `/services/${calculator.id}/disconnect_composio_service`, alice)).statusCode,
    ).toBe(404);
    expect((await auditActions()).map((e) => [e.action, e.object_id])).toEqual([
      ['connection.create', String(calculator.id)],
      ['connection.delete', String(calculator.id)],
    ]);
  });

  it('API_KEY: stores the trimmed key only sealed, uses it, and never shows it (G1)', async () => {
    const search = await byName('Web Search');
    expect(search.auth_schemes).toEqual(['API_KEY']);
    const url = `/services/${search.id}/register_api_service`;

    const bad: [unknown, string][] = [
      [{ api_key: '' }, 'blank'],
      [{ api_key: '   ' }, 'spaces'],
      [{ api_key: 'x'.repeat(4097) }, 'too long'],
      [{}, 'missing'],
      [{ api_key: 42 }, 'not a string'],
    ];
    for (const [body, why] of bad) {
      const res = await call('POST', url, alice, body);
      expect(res.statusCode, why).toBe(422);
      expect(res.json().detail[0].loc, why).toEqual(['body', 'api_key']);
    }
    const extra = await call('POST', url, alice, { api_key: 'k', user_id: 2 });
    expect(extra.statusCode).toBe(422);
    expect((await call('POST', `/services/${search.id}/register_noauth_service`, alice)).statusCode).toBe(
      422,
    );
    expect(await t.db.kysely.selectFrom('connections').selectAll().execute()).toEqual([]);

    const responses: string[] = [];
    const registered = await call('POST', url, alice, { api_key: `  ${CANARY}  ` });
    responses.push(registered.body);
    expect(registered.json()).toEqual({ redirectUrl: null, connectionStatus: 'ACTIVE' });
    expect((await byName('Web Search')).status).toBe('ACTIVE');

    // The key is sent to the API trimmed, only in the documented header.
    const action = await actionOf(search.id, 'web_search');
    const aliceId = await userId('alice');
    const result = await t.app.tools.executeAction(aliceId, action.id, { query: 'cadre' });
    expect(result).toMatchObject({ ok: true, data: { results: [{ title: 'Cadre' }] } });
    expect(brave.requests.at(-1)!.headers['x-subscription-token']).toBe(CANARY);
    expect(brave.requests.at(-1)!.url.search).not.toContain(CANARY);

    // A replaced key that the API accepts when it is saved and revokes later: the API's error
    // quotes it, the tool error does not.
    const wrongKey = `sk-canary-wrong-${crypto.randomUUID()}`;
    braveKeys.add(wrongKey);
    responses.push((await call('POST', url, alice, { api_key: wrongKey })).body);
    braveKeys.delete(wrongKey);
    const failed = await t.app.tools.executeAction(aliceId, action.id, { query: 'cadre' });
    expect(failed.ok).toBe(false);
    expect(JSON.stringify(failed)).not.toContain(wrongKey);

    for (const path of [
      '/services/',
      '/services/active',
      `/services/${search.id}/actions`,
      '/users/me/export',
    ]) {
      responses.push((await call('GET', path, alice)).body);
    }
    const everything = [
      ...responses,
      t.logs.join('\n'),
      JSON.stringify(await t.db.kysely.selectFrom('connections').selectAll().execute()),
      JSON.stringify(await t.db.kysely.selectFrom('audit_events').selectAll().execute()),
    ].join('\n');
    expect(everything).not.toContain(CANARY);
    expect(everything).not.toContain(wrongKey);
    expect(everything).not.toContain('sk-canary');
  });

  it('API_KEY: a key Brave refuses is not saved, and the 422 names the field and the refusal', async () => {
    const search = await byName('Web Search');
    const wrongKey = `sk-canary-wrong-${crypto.randomUUID()}`;
    const refused = await call('POST', `/services/${search.id}/register_api_service`, alice, {
      api_key: wrongKey,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      detail: [
        { loc: ['body', 'api_key'], msg: 'Brave Search refused this API key (401)', type: 'key_refused' },
      ],
      code: 'validation_failed',
    });
    // The check reached the (stub) provider with the key in its header, over real HTTP.
    expect(brave.requests.at(-1)!.headers['x-subscription-token']).toBe(wrongKey);
    expect(await t.db.kysely.selectFrom('connections').selectAll().execute()).toEqual([]);
    expect(await auditActions()).toEqual([]);
    expect((await byName('Web Search')).status).toBe('INACTIVE');
    expect([refused.body, t.logs.join('\n')].join('\n')).not.toContain(wrongKey);

    const accepted = await call('POST', `/services/${search.id}/register_api_service`, alice, {
      api_key: CANARY,
    });
    expect(accepted.json()).toEqual({ redirectUrl: null, connectionStatus: 'ACTIVE' });
  });

  it('each connection shows when a tool last used it and its last error, to its own user only', async () => {
    const search = await byName('Web Search');
    expect(search).toMatchObject({ last_used_at: null, last_error: null });
    const revocable = `sk-canary-revocable-${crypto.randomUUID()}`;
    braveKeys.add(revocable);
    await call('POST', `/services/${search.id}/register_api_service`, alice, { api_key: revocable });
    await call('POST', `/services/${search.id}/register_api_service`, bob, { api_key: CANARY });
    expect(await byName('Web Search')).toMatchObject({
      status: 'ACTIVE',
      last_used_at: null,
      last_error: null,
    });
    const action = await actionOf(search.id, 'web_search');
    const aliceId = await userId('alice');

    const before = new Date().toISOString();
    expect(await t.app.tools.executeAction(aliceId, action.id, { query: 'cadre' })).toMatchObject({
      ok: true,
    });
    const used = await byName('Web Search');
    expect(used.last_used_at! >= before).toBe(true);
    expect(used.last_error).toBeNull();
    // Another success within the minute writes nothing: a busy agent does not write a row per call.
    await t.app.tools.executeAction(aliceId, action.id, { query: 'cadre again' });
    expect((await byName('Web Search')).last_used_at).toBe(used.last_used_at);

    // Brave revokes the key: the failed call is the connection's last error, without the key.
    braveKeys.delete(revocable);
    await t.app.tools.executeAction(aliceId, action.id, { query: 'cadre' });
    const failed = await byName('Web Search');
    expect(failed.last_error).toEqual({
      message: 'Brave Search answered HTTP 401: the API key or token was refused; reconnect the service',
      at: failed.last_used_at,
    });
    expect(failed.last_used_at! >= used.last_used_at!).toBe(true);
    // Wrong arguments are not the connection's error; the call still counts as a use.
    await t.app.tools.executeAction(aliceId, action.id, { query: '' });
    const afterBadArgs = await byName('Web Search');
    expect(afterBadArgs.last_error).toEqual(failed.last_error);
    expect(afterBadArgs.last_used_at! >= failed.last_used_at!).toBe(true);

    // Bob's connection to the same service is his own: never used, no error.
    expect(await byName('Web Search', bob)).toMatchObject({
      status: 'ACTIVE',
      last_used_at: null,
      last_error: null,
    });
    // The export carries the usage with the connection, never the key.
    const exported = await call('GET', '/users/me/export', alice);
    expect(exported.body).toContain('"last_error":"Brave Search answered HTTP 401');
    expect(exported.body).not.toContain(revocable);

    // Saving a new key starts without the old key's error; the last use stays.
    await call('POST', `/services/${search.id}/register_api_service`, alice, { api_key: CANARY });
    const renewed = await byName('Web Search');
    expect(renewed).toMatchObject({
      status: 'ACTIVE',
      last_error: null,
      last_used_at: afterBadArgs.last_used_at,
    });
    expect(JSON.stringify(await services(alice))).not.toContain(revocable);
  });

  it('OAuth2: starts at GitHub, completes through the public callback and redirects only to /services', async () => {
    const github = await byName('GitHub');
    expect(github.auth_schemes).toEqual(['OAUTH2']);
    expect((await call('POST', `/services/${github.id}/register_noauth_service`, alice)).statusCode).toBe(
      422,
    );

    const started = await call('POST', `/services/${github.id}/register_auth_service`, alice);
    expect(started.statusCode).toBe(200);
    const { redirectUrl, connectionStatus } = started.json<{
      redirectUrl: string;
      connectionStatus: string;
    }>();
    expect(connectionStatus).toBe('INITIATED');
    expect(redirectUrl.startsWith(oauth.issuer)).toBe(true);
    // The answer binds the flow to this browser: a cookie only the callback path receives.
    const binding = String(started.headers['set-cookie']);
    expect(binding).toMatch(
      /^cadre_oauth=\d+\.[\w-]{43}; Max-Age=600; Path=\/backend\/api\/v1\/public\/oauth2\/callback\/; HttpOnly; SameSite=Lax$/,
    );
    const landed = await oauth.authorize(redirectUrl);
    // The browser arrives without our token (with its cookie), and a hostile extra parameter.
    const back = await t.app.inject({
      method: 'GET',
      url: `${landed.pathname}${landed.search}&redirect=https://evil.example/`,
      headers: { cookie: binding.split(';')[0]! },
    });
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('/services');
    expect((await byName('GitHub')).status).toBe('ACTIVE');
    expect((await byName('GitHub', bob)).status).toBe('INACTIVE');
    expect(await auditActions()).toEqual([
      { action: 'connection.create', object_id: String(github.id), detail: expect.stringContaining('oauth') },
    ]);

    // The browser forgets the binding; the same link again fails: the state was single use.
    expect(String(back.headers['set-cookie'])).toMatch(
      /^cadre_oauth=; Max-Age=0; Path=\/backend\/api\/v1\/public\/oauth2\/callback\//,
    );
    const again = await t.app.inject({
      method: 'GET',
      url: `${landed.pathname}${landed.search}`,
      headers: { cookie: binding.split(';')[0]! },
    });
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toMatch(/^\/services\?connect_error=/);

    const failures = [
      `${API}/public/oauth2/callback/`,
      `${API}/public/oauth2/callback/?state=${'x'.repeat(43)}&code=abc`,
      `${API}/public/oauth2/callback/?error=access_denied%3Cscript%3E&state=abc`,
      `${API}/public/${github.id}/composio_auth_redirect/?token=unknown&connectedAccountId=ca_1`,
    ];
    for (const url of failures) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(302);
      const location = new URL(String(res.headers.location), 'http://cadre.test');
      expect(location.host, url).toBe('cadre.test');
      expect(location.pathname, url).toBe('/services');
      expect(location.searchParams.get('connect_error'), url).toMatch(/\w/);
      expect(location.searchParams.get('connect_error'), url).not.toContain('<');
    }

    const disconnected = await call('DELETE', `/services/${github.id}/disconnect_composio_service`, alice);
    expect(disconnected.statusCode).toBe(204);
    expect((await byName('GitHub')).status).toBe('INACTIVE');
  });

  /** Starts a GitHub connection in `who`'s browser: the cookie it keeps, and where GitHub sends it back. */
  const startGithub = async (who: Record<string, string>) => {
    const github = await byName('GitHub', who);
    const res = await call('POST', `/services/${github.id}/register_auth_service`, who);
    const cookie = String(res.headers['set-cookie']).split(';')[0]!;
    const landed = await oauth.authorize(res.json<{ redirectUrl: string }>().redirectUrl);
    return { cookie, callback: `${landed.pathname}${landed.search}` };
  };
  /** A browser arriving at our callback, with a binding cookie or none. */
  const arrive = (callback: string, cookie?: string) =>
    t.app.inject({ method: 'GET', url: callback, headers: cookie ? { cookie } : {} });

  it("I1: a state minted for Alice completed in Bob's browser writes nothing to either user", async () => {
    const start = startGithub;
    const connections = () => t.db.kysely.selectFrom('connections').selectAll().execute();

    // Bob has a flow of his own in his browser; Alice's link is opened there, and with no cookie.
    const bobs = await start(bob);
    for (const cookie of [bobs.cookie, undefined]) {
      const alices = await start(alice);
      const res = await arrive(alices.callback, cookie);
      expect(res.statusCode).toBe(302);
      const location = new URL(String(res.headers.location), 'http://cadre.test');
      expect(location.pathname).toBe('/services');
      expect(location.searchParams.get('connect_error')).toMatch(/another browser/);
      expect(await connections()).toEqual([]);
    }
    // A cookie that claims to be Alice's but carries Bob's secret does not pass either.
    const alices = await start(alice);
    const forged = bobs.cookie.replace(/=\d+\./, `=${await userId('alice')}.`);
    expect((await arrive(alices.callback, forged)).headers.location).toMatch(/connect_error=/);
    expect(await connections()).toEqual([]);
    expect((await byName('GitHub')).status).toBe('INACTIVE');
    expect((await byName('GitHub', bob)).status).toBe('INACTIVE');

    // In the browser that started it, the flow completes for its own user only.
    const own = await start(alice);
    expect((await arrive(own.callback, own.cookie)).headers.location).toBe('/services');
    expect((await byName('GitHub')).status).toBe('ACTIVE');
    expect((await byName('GitHub', bob)).status).toBe('INACTIVE');
  });

  it('P1: disconnect and DELETE /users/me revoke the GitHub grant at GitHub; a refused revocation keeps the connection', async () => {
    const github = await byName('GitHub');
    const aliceId = await userId('alice');
    const connect = async () => {
      const own = await startGithub(alice);
      expect((await arrive(own.callback, own.cookie)).headers.location).toBe('/services');
      const row = await t.db.kysely
        .selectFrom('connections')
        .select('credentials')
        .where('user_id', '=', aliceId)
        .executeTakeFirstOrThrow();
      return (JSON.parse(t.vault.open(row.credentials!)) as { access_token: string }).access_token;
    };
    /** What GitHub's API answers the token now. */
    const githubSays = async (token: string) =>
      (await fetch(`${oauth.githubApi.url}/user/repos`, { headers: { authorization: `Bearer ${token}` } }))
        .status;
    const revocations = () =>
      oauth.githubApi.requests.filter((r) => r.method === 'DELETE' && r.path.startsWith('/applications/'));
    const disconnect = () => call('DELETE', `/services/${github.id}/disconnect_composio_service`, alice);

    const first = await connect();
    expect(await githubSays(first)).toBe(200);

    // GitHub cannot revoke: the connection stays, so nothing is forgotten that still works there.
    oauth.failRevocationsWith(503);
    const refused = await disconnect();
    expect(refused.statusCode).toBe(502);
    expect(refused.json().detail).toMatch(/GitHub answered HTTP 503/);
    expect((await byName('GitHub')).status).toBe('ACTIVE');
    expect(await githubSays(first)).toBe(200);
    oauth.failRevocationsWith(undefined);

    expect((await disconnect()).statusCode).toBe(204);
    expect((await byName('GitHub')).status).toBe('INACTIVE');
    expect(await githubSays(first)).toBe(401);
    const revoked = revocations().at(-1)!;
    expect(revoked.path).toBe(`/applications/${oauth.env.GITHUB_CLIENT_ID}/grant`);
    expect(revoked.headers.authorization).toBe(
      `Basic ${Buffer.from(`${oauth.env.GITHUB_CLIENT_ID}:${oauth.env.GITHUB_CLIENT_SECRET}`).toString('base64')}`,
    );
    expect(JSON.parse(revoked.body)).toEqual({ access_token: first });

    // Deleting the account revokes the grant first; while GitHub refuses, nothing is deleted.
    const second = await connect();
    oauth.failRevocationsWith(503);
    const kept = await call('DELETE', '/users/me', alice);
    expect(kept.statusCode).toBe(502);
    expect(kept.json().detail).toMatch(/GitHub could not be revoked/);
    expect(await userId('alice')).toBe(aliceId);
    expect(await githubSays(second)).toBe(200);
    oauth.failRevocationsWith(undefined);
    expect((await call('DELETE', '/users/me', alice)).statusCode).toBe(204);
    expect(await githubSays(second)).toBe(401);
    expect(JSON.parse(revocations().at(-1)!.body)).toEqual({ access_token: second });
    const logs = t.logs.join('\n');
    for (const secret of [first, second, oauth.env.GITHUB_CLIENT_SECRET!]) expect(logs).not.toContain(secret);
  });

  it('answers 404 for unknown services and 422 for ids that are not ids', async () => {
    const calls: ['GET' | 'POST' | 'DELETE', string][] = [
      ['GET', 'actions'],
      ['POST', 'register_auth_service'],
      ['POST', 'register_api_service'],
      ['POST', 'register_noauth_service'],
      ['DELETE', 'disconnect_composio_service'],
    ];
    for (const [method, tail] of calls) {
      const body = tail === 'register_api_service' ? { api_key: 'k' } : undefined;
      const unknown = await call(method, `/services/999999/${tail}`, alice, body);
      expect(unknown.statusCode, tail).toBe(404);
      expect(unknown.json(), tail).toEqual({ detail: 'Service not found', code: 'not_found' });
      for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
        const res = await call(method, `/services/${id}/${tail}`, alice, body);
        expect(res.statusCode, `${tail} ${id}`).toBe(422);
        expect(res.json().detail[0].loc, `${tail} ${id}`).toEqual(['params', 'service_id']);
      }
    }
    // A catalog service is not the caller's to remove.
    const calculator = await byName('Calculator');
    expect((await call('DELETE', `/services/${calculator.id}`, alice)).statusCode).toBe(404);
    expect((await call('DELETE', '/services/999999', alice)).statusCode).toBe(404);
  });

  it('adds a custom MCP server by URL only (F2) and refuses addresses the egress guard refuses', async () => {
    for (const forbidden of ['command', 'args', 'env', 'stdio', 'transport']) {
      const res = await call('POST', '/services/custom_mcp', alice, {
        name: 'Mine',
        url: mcp.url,
        [forbidden]: forbidden === 'args' ? ['-c', 'id'] : 'sh',
      });
      expect(res.statusCode, forbidden).toBe(422);
      expect(res.json().detail[0].loc, forbidden).toEqual(['body', forbidden]);
    }
    for (const [body, field] of [
      [{ url: mcp.url }, 'name'],
      [{ name: 'Mine' }, 'url'],
      [{ name: 'Mine', url: 'file:///etc/passwd' }, 'url'],
      [{ name: 'Mine', url: 'http://169.254.169.254/latest/meta-data/' }, 'url'],
      [{ name: 'Mine', url: mcp.url, header_name: 'X-Key' }, 'header_value'],
    ] as const) {
      const res = await call('POST', '/services/custom_mcp', alice, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().detail[0].loc, JSON.stringify(body)).toEqual(['body', field]);
    }
    expect(
      await t.db.kysely.selectFrom('services').selectAll().where('owner_user_id', 'is not', null).execute(),
    ).toEqual([]);

    const added = await call('POST', '/services/custom_mcp', alice, {
      name: 'My tools',
      url: mcp.url,
      header_name: 'X-Api-Key',
      header_value: CANARY,
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ name: 'My tools', status: 'ACTIVE', auth_schemes: ['NO_AUTH'] });
    expect(added.body).not.toContain(CANARY);
    expect(mcp.seenHeaders.at(-1)!['x-api-key']).toBe(CANARY);
    const actions = await call('GET', `/services/${added.json().id}/actions`, alice);
    expect(
      actions
        .json<{ name: string }[]>()
        .map((a) => a.name)
        .sort(),
    ).toEqual(['delete_item', 'echo', 'fail', 'post_message']);
    expect(t.logs.join('\n')).not.toContain(CANARY);
  });

  it('pages through the list with limit and cursor in the whole list’s order, each user their own', async () => {
    const calculator = await byName('Calculator');
    await call('POST', `/services/${calculator.id}/register_noauth_service`, alice);
    const custom = (
      await call('POST', '/services/custom_mcp', alice, { name: 'Alice MCP', url: mcp.url })
    ).json<Service>();
    const pages = async (who: Record<string, string>, limit: number) => {
      const seen: Service[][] = [];
      let url: string | undefined = `${API}/services/?limit=${limit}`;
      while (url) {
        const page: Awaited<ReturnType<typeof call>> = await t.app.inject({
          method: 'GET',
          url,
          headers: who,
        });
        expect(page.statusCode).toBe(200);
        seen.push(page.json<Service[]>());
        url = /^<([^>]+)>; rel="next"$/.exec((page.headers.link as string | undefined) ?? '')?.[1];
      }
      return seen;
    };

    for (const who of [alice, bob]) {
      const whole = await call('GET', '/services/', who);
      // Without limit or cursor: the whole list as before, naming no next page.
      expect(whole.headers.link).toBeUndefined();
      const all = whole.json<Service[]>();
      expect(all.length).toBeGreaterThan(3);
      const paged = await pages(who, 2);
      expect(paged.slice(0, -1).every((page) => page.length === 2)).toBe(true);
      expect(paged.flat()).toEqual(all);
      // Exactly the last page is short (possibly empty): no page is named after it.
      expect(paged.at(-1)!.length).toBeLessThan(2);
    }
    // Alice's own service and connection are on her pages only.
    const alicePages = (await pages(alice, 3)).flat();
    // Her connected services first (the custom server connects as it is added), then by name.
    expect(alicePages.slice(0, 2).map((s) => [s.id, s.status])).toEqual([
      [custom.id, 'ACTIVE'],
      [calculator.id, 'ACTIVE'],
    ]);
    const bobPages = (await pages(bob, 3)).flat();
    expect(bobPages.some((s) => s.id === custom.id)).toBe(false);
    expect(bobPages.find((s) => s.id === calculator.id)!.status).toBe('INACTIVE');

    const all = await services(alice);
    const afterTwo = await call('GET', '/services/?cursor=2', alice);
    expect(afterTwo.json()).toEqual(all.slice(2));
    expect(afterTwo.headers.link).toBeUndefined();
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=two', 'limit'],
      ['cursor=-1', 'cursor'],
      ['cursor=abc', 'cursor'],
    ]) {
      const bad = await call('GET', `/services/?${query}`, alice);
      expect(bad.statusCode, query).toBe(422);
      expect(bad.json().detail[0].loc, query).toEqual(['querystring', field]);
    }
  });

  it('two users: Bob never sees or uses Alice’s connection or her custom MCP server', async () => {
    const calculator = await byName('Calculator');
    await call('POST', `/services/${calculator.id}/register_noauth_service`, alice);
    const custom = (
      await call('POST', '/services/custom_mcp', alice, { name: 'Alice MCP', url: mcp.url })
    ).json<Service>();
    const aliceId = await userId('alice');

    const bobList = await services(bob);
    expect(bobList.find((s) => s.id === custom.id)).toBeUndefined();
    expect(bobList.find((s) => s.id === calculator.id)!.status).toBe('INACTIVE');
    expect((await call('GET', '/services/active', bob)).json()).toEqual([]);
    const bobId = await userId('bob');

    // Every call on Alice's custom service answers Bob as if it did not exist.
    for (const [method, tail, body] of [
      ['GET', 'actions', undefined],
      ['POST', 'register_noauth_service', undefined],
      ['POST', 'register_api_service', { api_key: 'k' }],
      ['POST', 'register_auth_service', undefined],
      ['DELETE', 'disconnect_composio_service', undefined],
    ] as const) {
      const res = await call(method, `/services/${custom.id}/${tail}`, bob, body);
      expect(res.statusCode, tail).toBe(404);
      expect(res.json(), tail).toEqual({ detail: 'Service not found', code: 'not_found' });
    }
    expect((await call('DELETE', `/services/${custom.id}`, bob)).statusCode).toBe(404);
    // Bob has no calculator connection of his own to disconnect; Alice's stays.
    expect(
      (await call('DELETE', `/services/${calculator.id}/disconnect_composio_service`, bob)).statusCode,
    ).toBe(404);
    expect((await byName('Calculator')).status).toBe('ACTIVE');

    // Nor can Bob run Alice's tools.
    const [echo] = await t.db.kysely
      .selectFrom('actions')
      .select('id')
      .where('service_id', '=', custom.id)
      .where('name', '=', 'echo')
      .execute();
    expect(await t.app.tools.executeAction(bobId, echo!.id, { text: 'x' })).toMatchObject({ ok: false });
    expect(await t.app.tools.executeAction(aliceId, echo!.id, { text: 'x' })).toEqual({
      ok: true,
      data: 'echo: x',
    });
    const [calc] = await t.db.kysely
      .selectFrom('actions')
      .select('id')
      .where('service_id', '=', calculator.id)
      .execute();
    expect(await t.app.tools.executeAction(bobId, calc!.id, {})).toMatchObject({
      ok: false,
      code: 'auth_expired',
    });

    // Alice removes her server: the service, its tools and the connection go.
    expect((await call('DELETE', `/services/${custom.id}`, alice)).statusCode).toBe(204);
    expect((await services(alice)).find((s) => s.id === custom.id)).toBeUndefined();
    expect(
      await t.db.kysely.selectFrom('actions').selectAll().where('service_id', '=', custom.id).execute(),
    ).toEqual([]);
    expect((await call('GET', `/services/${custom.id}/actions`, alice)).statusCode).toBe(404);
  });

  it('P1: DELETE /users/me revokes the user’s connections at the provider first', async () => {
    const serp = await byName('SerpApi');
    const registered = await call('POST', `/services/${serp.id}/register_api_service`, alice, {
      api_key: CANARY,
    });
    expect(registered.json()).toEqual({ redirectUrl: null, connectionStatus: 'ACTIVE' });
    const bobRegistered = await call('POST', `/services/${serp.id}/register_api_service`, bob, {
      api_key: 'bob-key-123',
    });
    expect(bobRegistered.statusCode).toBe(200);
    expect(composioAccounts.size).toBeGreaterThanOrEqual(2);
    const aliceAccount = (
      await t.db.kysely
        .selectFrom('connections')
        .select('external_id')
        .where('user_id', '=', await userId('alice'))
        .executeTakeFirstOrThrow()
    ).external_id!;
    expect(composioAccounts.has(aliceAccount)).toBe(true);

    expect((await call('DELETE', '/users/me', alice)).statusCode).toBe(204);
    expect(composioAccounts.has(aliceAccount)).toBe(false);
    expect(
      composio.requests.some(
        (r) => r.method === 'DELETE' && r.path.endsWith(`/connected_accounts/${aliceAccount}`),
      ),
    ).toBe(true);
    // Bob's account is untouched.
    expect((await byName('SerpApi', bob)).status).toBe('ACTIVE');
    expect(composio.requests.map((r) => r.body).join('\n')).toContain(CANARY);
    expect(t.logs.join('\n')).not.toContain(CANARY);
  });

  describe('Composio webhook over HTTP (J1–J3)', () => {
    const WEBHOOK = `${API}/public/composio-webhook`;
    const now = () => Math.floor(Date.now() / 1000);
    const signed = (
      body: string,
      id = `msg_${crypto.randomUUID()}`,
      ts = now(),
      secret = WEBHOOK_SECRET,
    ) => ({
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(ts),
      'webhook-signature': signWebhook(secret, id, ts, Buffer.from(body)),
    });
    const post = (payload: string, headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: WEBHOOK, headers, payload });
    const body = JSON.stringify({ type: 'composio.ping', data: { n: 1 } });

    it('J1/J2: checks the headers and the signature over the exact bytes, the window and replays', async () => {
      const good = signed(body);
      for (const missing of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
        const headers = { ...good };
        delete headers[missing as keyof typeof headers];
        expect((await post(body, headers)).statusCode, missing).toBe(401);
      }
      // Same JSON, different bytes: the signature covers the raw body.
      expect((await post(JSON.stringify(JSON.parse(body), null, 2), good)).statusCode).toBe(401);
      expect((await post(body.replace('1', '2'), good)).statusCode).toBe(401);
      expect((await post(body, { ...good, 'webhook-signature': 'v1,AAAA' })).statusCode).toBe(401);
      expect((await post(body, signed(body, undefined, undefined, 'another-secret'))).statusCode).toBe(401);
      expect((await post(body, signed(body, undefined, now() - 301))).statusCode).toBe(401);
      expect((await post(body, signed(body, undefined, now() + 301))).statusCode).toBe(401);

      const first = await post(body, good);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ detail: 'Ignored' });
      const replay = await post(body, good);
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual({ detail: 'Already processed' });
      // Any content type: the bytes are what is signed.
      const text = signed(body);
      expect((await post(body, { ...text, 'content-type': 'text/plain' })).statusCode).toBe(200);
    });

    it('refuses a body over 256 KB with 413 before checking anything', async () => {
      const big = JSON.stringify({ type: 'x', pad: 'a'.repeat(256 * 1024) });
      const res = await post(big, signed(big));
      expect(res.statusCode).toBe(413);
      expect(await t.db.kysely.selectFrom('webhook_deliveries').selectAll().execute()).toEqual([]);
      // The limit is the webhook's own: ordinary routes keep their JSON parser.
      expect(
        (await call('POST', '/services/custom_mcp', alice, { name: 'x', command: 'sh', url: mcp.url }))
          .statusCode,
      ).toBe(422);
    });

    it('J3: answers 503 and processes nothing when no secret is configured', async () => {
      const unconfigured = await createTestApp({ ...issuer.env });
      try {
        const res = await unconfigured.app.inject({
          method: 'POST',
          url: WEBHOOK,
          headers: signed(body),
          payload: body,
        });
        expect(res.statusCode).toBe(503);
        expect(await unconfigured.db.kysely.selectFrom('webhook_deliveries').selectAll().execute()).toEqual(
          [],
        );
      } finally {
        await unconfigured.close();
      }
    });
  });
});
