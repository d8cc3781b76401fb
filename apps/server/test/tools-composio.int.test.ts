import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiKeyBodySchema } from '@cadre/contract';
import { HttpError } from '../src/http/errors.ts';
import { newBrowserSecret, type CallbackBrowser } from '../src/modules/services/oauth-flow.ts';
import { signWebhook, verifyWebhook } from '../src/security/standard-webhooks.ts';
import { startFakeServer, type FakeServer } from './support/fake-http.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';
import { createUser } from './support/users.ts';

const API_KEY = `sk-canary-composio-${crypto.randomUUID()}`;
const SECRET = 'whsec-test-secret';

interface Account {
  id: string;
  user_id: string;
  status: string;
  toolkit: { slug: string };
}

describe(`Composio provider on ${testDatabaseKind()}`, () => {
  let composio: FakeServer;
  const accounts = new Map<string, Account>();
  let links: { callback_url: string; user_id: string; connected_account_id: string }[] = [];
  /** The connect link Composio answers next, when a test wants another than its hosted page. */
  let nextRedirectUrl: string | undefined;
  /** Signs the HTTP tests' users in (the other tests call the services directly). */
  let issuer: TestIssuer;
  const tools = [
    {
      slug: 'GMAIL_SEND_EMAIL',
      name: 'Send email',
      description: 'Sends an email',
      input_parameters: { type: 'object', properties: { to: { type: 'string' } } },
      tags: ['openWorldHint'],
      version: '20250901_00',
    },
    {
      slug: 'GMAIL_LIST_THREADS',
      name: 'List threads',
      description: 'Lists threads',
      input_parameters: { type: 'object' },
      tags: ['readOnlyHint'],
      version: '20250901_00',
    },
    {
      slug: 'GMAIL_DELETE_DRAFT',
      name: 'Delete draft',
      description: 'Deletes',
      input_parameters: { type: 'object' },
      tags: ['destructiveHint'],
      version: '20250901_00',
    },
  ];
  let t: TestApp;
  let alice: number;
  /** Alice's browser: the cookie it keeps for the OAuth flows it starts. */
  let aliceBrowser: CallbackBrowser;
  let bob: number;

  beforeAll(async () => {
    composio = await startFakeServer((req) => {
      if (req.headers['x-api-key'] !== API_KEY)
        return { status: 401, json: { error: { message: 'Invalid API key', code: 401, status: 401 } } };
      const p = req.path.replace(/^\/api\/v3/, '');
      if (req.method === 'GET' && p === '/toolkits') {
        return {
          json: {
            items: [
              {
                slug: 'gmail',
                name: 'Gmail',
                meta: { description: 'Email by Google', logo: 'https://logos.composio.dev/gmail.svg' },
                auth_schemes: ['OAUTH2'],
                no_auth: false,
              },
              {
                slug: 'serpapi',
                name: 'SerpApi',
                meta: { description: 'Search API' },
                auth_schemes: ['API_KEY'],
                no_auth: false,
              },
            ],
            next_cursor: null,
          },
        };
      }
      if (req.method === 'GET' && p === '/tools') {
        return {
          json: {
            items:
              req.url.searchParams.get('toolkit_slug') === 'gmail'
                ? tools
                : [
                    {
                      slug: 'SERPAPI_SEARCH',
                      name: 'Search',
                      description: 'Search',
                      input_parameters: { type: 'object' },
                      tags: ['readOnlyHint'],
                      version: '1',
                    },
                  ],
            next_cursor: null,
          },
        };
      }
      if (req.method === 'GET' && p === '/auth_configs') return { json: { items: [] } };
      if (req.method === 'POST' && p === '/auth_configs') {
        const body = JSON.parse(req.body) as { toolkit: { slug: string } };
        return { json: { auth_config: { id: `ac_${body.toolkit.slug}` } } };
      }
      if (req.method === 'POST' && p === '/connected_accounts/link') {
        const body = JSON.parse(req.body) as {
          callback_url: string;
          user_id: string;
          auth_config_id: string;
        };
        const id = `ca_${accounts.size + 1}`;
        accounts.set(id, {
          id,
          user_id: body.user_id,
          status: 'INITIATED',
          toolkit: { slug: body.auth_config_id.slice(3) },
        });
        links.push({ callback_url: body.callback_url, user_id: body.user_id, connected_account_id: id });
        return {
          status: 201,
          json: {
            redirect_url: nextRedirectUrl ?? `https://connect.composio.dev/link/${id}`,
            connected_account_id: id,
            link_token: 'lt',
            expires_at: '2030-01-01T00:00:00Z',
          },
        };
      }
      if (req.method === 'POST' && p === '/connected_accounts') {
        const body = JSON.parse(req.body) as {
          connection: { user_id: string; state: { val: { api_key: string } } };
        };
        const id = `ca_${accounts.size + 1}`;
        accounts.set(id, {
          id,
          user_id: body.connection.user_id,
          status: 'ACTIVE',
          toolkit: { slug: 'serpapi' },
        });
        return {
          status: 201,
          json: { id, connectionData: { authScheme: 'API_KEY', val: { status: 'ACTIVE' } } },
        };
      }
      const account = /^\/connected_accounts\/([^/]+)$/.exec(p);
      if (account) {
        const found = accounts.get(account[1]!);
        if (!found)
          return { status: 404, json: { error: { message: 'Connected account not found', status: 404 } } };
        if (req.method === 'DELETE') {
          accounts.delete(found.id);
          return { json: { success: true } };
        }
        return { json: found };
      }
      const exec = /^\/tools\/execute\/([A-Z_]+)$/.exec(p);
      if (exec && req.method === 'POST') {
        const body = JSON.parse(req.body) as {
          arguments: Record<string, unknown>;
          user_id: string;
          connected_account_id?: string;
          version: string;
        };
        if (body.arguments.fail)
          return {
            json: {
              data: {},
              error: 'Gmail API error: invalid recipient',
              successful: false,
              log_id: 'log_1',
            },
          };
        if (body.arguments.status)
          return {
            status: Number(body.arguments.status),
            json: { error: { message: 'Rate limit exceeded', status: 429 } },
          };
        return {
          json: { data: { tool: exec[1], echo: body }, error: null, successful: true, log_id: 'log_2' },
        };
      }
      return { status: 404, json: { error: { message: `no route ${req.method} ${p}` } } };
    });
  });
  afterAll(async () => {
    await composio?.close();
    await issuer?.close();
  });
  beforeEach(async () => {
    links = [];
    nextRedirectUrl = undefined;
    issuer ??= await startTestIssuer();
    t = await createTestApp({
      ...issuer.env,
      COMPOSIO_API_KEY: API_KEY,
      COMPOSIO_BASE_URL: composio.url,
      COMPOSIO_WEBHOOK_SECRET: SECRET,
      EGRESS_ALLOW_PRIVATE: '127.0.0.1',
    });
    alice = await createUser(t.db, 'alice');
    aliceBrowser = { userId: alice, secret: newBrowserSecret() };
    bob = await createUser(t.db, 'bob');
  });
  afterEach(async () => {
    await t?.close();
  });

  const service = async (slug: string) =>
    (
      await t.db.kysely
        .selectFrom('services')
        .select('id')
        .where('provider', '=', 'composio')
        .where('provider_key', '=', slug)
        .executeTakeFirstOrThrow()
    ).id;

  it('turns toolkits into services and tools into actions with effects from tags', async () => {
    const services = await t.app.services.listServicesForUser(alice);
    expect(services.find((s) => s.name === 'Gmail')).toMatchObject({
      auth_schemes: ['OAUTH2'],
      description: 'Email by Google',
      status: 'INACTIVE',
    });
    expect(services.find((s) => s.name === 'SerpApi')).toMatchObject({ auth_schemes: ['API_KEY'] });
    const gmail = await service('gmail');
    const actions = await t.app.services.listActions(gmail, alice);
    expect(actions.map((a) => a.name).sort()).toEqual([
      'GMAIL_DELETE_DRAFT',
      'GMAIL_LIST_THREADS',
      'GMAIL_SEND_EMAIL',
    ]);
    const rows = await t.db.kysely
      .selectFrom('actions')
      .select(['name', 'effect', 'version', 'id'])
      .where('service_id', '=', gmail)
      .orderBy('name')
      .execute();
    expect(rows.map((r) => [r.name, r.effect, r.version])).toEqual([
      ['GMAIL_DELETE_DRAFT', 'write', '20250901_00'],
      ['GMAIL_LIST_THREADS', 'read', '20250901_00'],
      ['GMAIL_SEND_EMAIL', 'send', '20250901_00'],
    ]);
    expect(composio.requests.every((r) => r.headers['x-api-key'] === API_KEY)).toBe(true);
  });

  it('connects by OAuth through a connect link and verifies the account on the callback', async () => {
    const gmail = await service('gmail');
    const boundTo: string[] = [];
    const registration = await t.app.services.registerAuthService(gmail, alice, {
      ...aliceBrowser,
      onBound: (path) => boundTo.push(path),
    });
    // I1: the browser's cookie goes only to this service's redirect path.
    expect(boundTo).toEqual([`/backend/api/v1/public/${gmail}/composio_auth_redirect/`]);
    expect(registration).toEqual({
      redirectUrl: expect.stringMatching(/^https:\/\/connect\.composio\.dev\/link\/ca_/),
      connectionStatus: 'INITIATED',
    });
    const link = links.at(-1)!;
    expect(link.user_id).toBe(`cadre-user-${alice}`);
    const callback = new URL(link.callback_url);
    expect(`${callback.origin}${callback.pathname}`).toBe(
      `http://cadre.test/backend/api/v1/public/${gmail}/composio_auth_redirect/`,
    );
    const token = callback.searchParams.get('token')!;
    expect(token.length).toBeGreaterThanOrEqual(22);
    // Only the hash of the token is stored.
    expect(JSON.stringify(await t.db.kysely.selectFrom('oauth_states').selectAll().execute())).not.toContain(
      token,
    );

    // Not yet ACTIVE at Composio: refused, nothing written, and the token is spent.
    await expect(
      t.app.services.finishOAuthCallback(
        token,
        { connected_account_id: link.connected_account_id },
        { serviceId: gmail, browser: aliceBrowser },
      ),
    ).rejects.toBeInstanceOf(HttpError);
    expect(await t.db.kysely.selectFrom('connections').selectAll().execute()).toEqual([]);

    await t.app.services.registerAuthService(gmail, alice, aliceBrowser);
    const second = links.at(-1)!;
    accounts.get(second.connected_account_id)!.status = 'ACTIVE';
    const token2 = new URL(second.callback_url).searchParams.get('token')!;
    // A different account id in the query is only a hint, and a mismatch is refused.
    await expect(
      t.app.services.finishOAuthCallback(
        token2,
        { connected_account_id: 'ca_999' },
        { serviceId: gmail, browser: aliceBrowser },
      ),
    ).rejects.toBeInstanceOf(HttpError);
    await t.app.services.registerAuthService(gmail, alice, aliceBrowser);
    const third = links.at(-1)!;
    accounts.get(third.connected_account_id)!.status = 'ACTIVE';
    const token3 = new URL(third.callback_url).searchParams.get('token')!;
    await expect(
      t.app.services.finishOAuthCallback(token3, {}, { serviceId: gmail + 1000, browser: aliceBrowser }),
    ).rejects.toBeInstanceOf(HttpError);

    await t.app.services.registerAuthService(gmail, alice, aliceBrowser);
    const fourth = links.at(-1)!;
    accounts.get(fourth.connected_account_id)!.status = 'ACTIVE';
    const token4 = new URL(fourth.callback_url).searchParams.get('token')!;
    expect(
      await t.app.services.finishOAuthCallback(
        token4,
        { connected_account_id: fourth.connected_account_id, status: 'success' },
        { serviceId: gmail, browser: aliceBrowser },
      ),
    ).toEqual({ serviceId: gmail, userId: alice });
    const conn = await t.db.kysely
      .selectFrom('connections')
      .selectAll()
      .where('user_id', '=', alice)
      .executeTakeFirstOrThrow();
    expect(conn).toMatchObject({ status: 'ACTIVE', external_id: fourth.connected_account_id });
    // Used once.
    await expect(
      t.app.services.finishOAuthCallback(token4, {}, { serviceId: gmail, browser: aliceBrowser }),
    ).rejects.toBeInstanceOf(HttpError);

    // Execution passes our user id, the account and the pinned version.
    await t.app.services.listActions(gmail, alice);
    const [send] = await t.db.kysely
      .selectFrom('actions')
      .select('id')
      .where('name', '=', 'GMAIL_SEND_EMAIL')
      .execute();
    const ok = await t.app.tools.executeAction(alice, send!.id, { to: 'x@example.com' });
    expect(ok).toMatchObject({
      ok: true,
      data: {
        tool: 'GMAIL_SEND_EMAIL',
        echo: {
          user_id: `cadre-user-${alice}`,
          connected_account_id: fourth.connected_account_id,
          version: '20250901_00',
          arguments: { to: 'x@example.com' },
        },
      },
    });
    expect(await t.app.tools.executeAction(alice, send!.id, { fail: true })).toEqual({
      ok: false,
      code: 'provider_error',
      error: 'gmail: Gmail API error: invalid recipient (log log_1)',
    });
    expect(await t.app.tools.executeAction(alice, send!.id, { status: 429 })).toMatchObject({
      ok: false,
      code: 'rate_limited',
      error: 'Composio: Rate limit exceeded',
    });
    // Bob cannot use Alice's connection.
    expect(await t.app.tools.executeAction(bob, send!.id, {})).toMatchObject({
      ok: false,
      code: 'auth_expired',
    });

    await t.app.services.disconnect(gmail, alice);
    expect(accounts.has(fourth.connected_account_id)).toBe(false);
    expect(await t.app.services.listActiveServices(alice)).toEqual([]);
  });

  describe('over HTTP, signed in', () => {
    const API = '/backend/api/v1';
    const connections = () => t.db.kysely.selectFrom('connections').selectAll().execute();
    const register = async (auth: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: `${API}/services/${await service('gmail')}/register_auth_service`,
        headers: auth,
      });
    /**
     * `auth`'s browser starts a Gmail connection and signs in at Composio: the cookie the browser
     * keeps, and the address Composio sends it back to.
     */
    const start = async (auth: Record<string, string>) => {
      const res = await register(auth);
      expect(res.statusCode).toBe(200);
      const link = links.at(-1)!;
      accounts.get(link.connected_account_id)!.status = 'ACTIVE';
      const back = new URL(link.callback_url);
      back.searchParams.set('status', 'success');
      back.searchParams.set('connectedAccountId', link.connected_account_id);
      return {
        cookie: String(res.headers['set-cookie']).split(';')[0]!,
        callback: `${back.pathname}${back.search}`,
      };
    };
    const arrive = (callback: string, cookie?: string) =>
      t.app.inject({ method: 'GET', url: callback, headers: cookie ? { cookie } : {} });

    it("I1: Carol's Composio redirect completed in Dave's browser, or in none, writes nothing", async () => {
      const carol = await signInAs(t, issuer, { sub: 'carol', email: 'carol@example.test' });
      const dave = await signInAs(t, issuer, { sub: 'dave', email: 'dave@example.test' });
      // Dave has a flow of his own in his browser; Carol's link is opened there, and with no cookie.
      const daves = await start(dave.auth);
      const forged = daves.cookie.replace(/=\d+\./, `=${carol.id}.`);
      for (const cookie of [daves.cookie, undefined, forged]) {
        const carols = await start(carol.auth);
        const res = await arrive(carols.callback, cookie);
        expect(res.statusCode, String(cookie)).toBe(302);
        const location = new URL(String(res.headers.location), 'http://cadre.test');
        expect(location.pathname).toBe('/services');
        expect(location.searchParams.get('connect_error'), String(cookie)).toMatch(/another browser/);
        expect(await connections()).toEqual([]);
      }
      // In the browser that started it, Carol's flow completes, for Carol only.
      const own = await start(carol.auth);
      expect((await arrive(own.callback, own.cookie)).headers.location).toBe('/services');
      expect((await connections()).map((c) => [c.user_id, c.status])).toEqual([[carol.id, 'ACTIVE']]);
    });

    it("I3: a connect link that is not https on one of Composio's hosts is refused; nothing is stored", async () => {
      const carol = await signInAs(t, issuer, { sub: 'carol', email: 'carol@example.test' });
      for (const [link, reason] of [
        ['http://connect.composio.dev/link/ca_x', /not https/],
        ['https://evil.example/link/ca_x', /unexpected host \(evil\.example\)/],
        ['https://composio.dev.evil.example/link/ca_x', /unexpected host/],
        ['javascript:alert(document.cookie)', /not https/],
        ['data:text/html,<script>alert(1)</script>', /not https/],
        ['//evil.example/link', /invalid sign-in link/],
      ] as const) {
        nextRedirectUrl = link;
        const res = await register(carol.auth);
        expect(res.statusCode, link).toBe(502);
        expect(res.json().detail, link).toMatch(reason);
        expect(res.body, link).not.toContain(link);
        expect(res.headers['set-cookie'], link).toBeUndefined();
        expect(await t.db.kysely.selectFrom('oauth_states').selectAll().execute(), link).toEqual([]);
        expect(await connections(), link).toEqual([]);
      }
      nextRedirectUrl = undefined;
      expect((await register(carol.auth)).json()).toMatchObject({
        redirectUrl: expect.stringMatching(/^https:\/\/connect\.composio\.dev\/link\//),
      });
    });
  });

  it('refuses a callback for an account that belongs to another user', async () => {
    const gmail = await service('gmail');
    await t.app.services.registerAuthService(gmail, alice, aliceBrowser);
    const link = links.at(-1)!;
    accounts.set(link.connected_account_id, {
      ...accounts.get(link.connected_account_id)!,
      status: 'ACTIVE',
      user_id: `cadre-user-${bob}`,
    });
    const token = new URL(link.callback_url).searchParams.get('token')!;
    await expect(
      t.app.services.finishOAuthCallback(token, {}, { serviceId: gmail, browser: aliceBrowser }),
    ).rejects.toThrow(/someone else/);
    expect(await t.db.kysely.selectFrom('connections').selectAll().execute()).toEqual([]);
  });

  it('registers an API key at Composio without storing it', async () => {
    const serp = await service('serpapi');
    const { api_key } = apiKeyBodySchema.parse({ api_key: ' serp-key-canary-123 ' });
    expect(await t.app.services.registerApiService(serp, alice, api_key)).toEqual({
      redirectUrl: null,
      connectionStatus: 'ACTIVE',
    });
    const sent = composio.requests.find(
      (r) => r.method === 'POST' && r.path.endsWith('/connected_accounts'),
    )!;
    expect(JSON.parse(sent.body)).toMatchObject({
      auth_config: { id: 'ac_serpapi' },
      connection: {
        user_id: `cadre-user-${alice}`,
        state: { authScheme: 'API_KEY', val: { api_key: 'serp-key-canary-123' } },
      },
    });
    expect(JSON.stringify(await t.db.kysely.selectFrom('connections').selectAll().execute())).not.toContain(
      'serp-key-canary',
    );
    expect(t.logs.join('\n')).not.toContain(API_KEY);
  });

  describe('webhooks (J1–J5)', () => {
    const now = () => Math.floor(Date.now() / 1000);
    const signed = (body: string, id = `msg_${crypto.randomUUID()}`, ts = now(), secret = SECRET) => ({
      'webhook-id': id,
      'webhook-timestamp': String(ts),
      'webhook-signature': signWebhook(secret, id, ts, body),
    });

    it('J1/J2 refuses missing headers, wrong signatures, tampered bodies and stale or future timestamps', () => {
      const body = Buffer.from('{"type":"x"}');
      const good = signed(body.toString());
      expect(verifyWebhook({ secret: SECRET, headers: good, rawBody: body })).toMatchObject({ ok: true });
      for (const missing of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
        const headers: Record<string, string> = { ...good };
        delete headers[missing];
        expect(verifyWebhook({ secret: SECRET, headers, rawBody: body })).toMatchObject({
          ok: false,
          code: 'unauthorized',
        });
      }
      expect(
        verifyWebhook({
          secret: SECRET,
          headers: { ...good, 'webhook-signature': 'v1,AAAA' },
          rawBody: body,
        }),
      ).toMatchObject({ ok: false, code: 'unauthorized' });
      expect(
        verifyWebhook({
          secret: SECRET,
          headers: signed(body.toString(), 'id', now(), 'other'),
          rawBody: body,
        }),
      ).toMatchObject({ ok: false, code: 'unauthorized' });
      const tampered = Buffer.from(body);
      tampered[2] = tampered[2]! ^ 1;
      expect(verifyWebhook({ secret: SECRET, headers: good, rawBody: tampered })).toMatchObject({
        ok: false,
        code: 'unauthorized',
      });
      expect(
        verifyWebhook({ secret: SECRET, headers: signed(body.toString(), 'a', now() - 301), rawBody: body }),
      ).toMatchObject({ ok: false, code: 'unauthorized' });
      expect(
        verifyWebhook({ secret: SECRET, headers: signed(body.toString(), 'a', now() + 301), rawBody: body }),
      ).toMatchObject({ ok: false, code: 'unauthorized' });
      expect(
        verifyWebhook({ secret: SECRET, headers: signed(body.toString(), 'a', now() - 299), rawBody: body }),
      ).toMatchObject({ ok: true });
      // Several signatures (secret rotation): one valid is enough.
      expect(
        verifyWebhook({
          secret: SECRET,
          headers: { ...good, 'webhook-signature': `v1,AAAA ${good['webhook-signature']}` },
          rawBody: body,
        }),
      ).toMatchObject({ ok: true });
    });

    it('J3 fails closed without a secret', async () => {
      const body = '{"type":"composio.connected_account.expired","data":{"id":"ca_1"}}';
      expect(
        verifyWebhook({ secret: undefined, headers: signed(body), rawBody: Buffer.from(body) }),
      ).toMatchObject({ ok: false, code: 'unavailable' });
      const noSecret = await createTestApp({
        COMPOSIO_API_KEY: API_KEY,
        COMPOSIO_BASE_URL: composio.url,
        EGRESS_ALLOW_PRIVATE: '127.0.0.1',
      });
      try {
        expect(await noSecret.app.tools.handleComposioWebhook(Buffer.from(body), signed(body))).toMatchObject(
          { ok: false, code: 'unavailable' },
        );
      } finally {
        await noSecret.close();
      }
    });

    it('J4/J5 processes a delivery once and resolves the owner from our own rows', async () => {
      const serp = await service('serpapi');
      await t.app.services.registerApiService(serp, alice, 'k-alice');
      await t.app.services.registerApiService(serp, bob, 'k-bob');
      const aliceAccount = (
        await t.db.kysely
          .selectFrom('connections')
          .select('external_id')
          .where('user_id', '=', alice)
          .executeTakeFirstOrThrow()
      ).external_id!;

      // A trigger claiming Bob's user id on Alice's account addresses nobody.
      const spoof = JSON.stringify({
        type: 'composio.trigger.message',
        metadata: { connected_account_id: aliceAccount, user_id: `cadre-user-${bob}`, trigger_id: 'ti_1' },
        data: { x: 1 },
      });
      expect(await t.app.tools.handleComposioWebhook(Buffer.from(spoof), signed(spoof))).toMatchObject({
        ok: true,
        event: { userIds: [] },
      });
      const trigger = JSON.stringify({
        type: 'composio.trigger.message',
        metadata: { connected_account_id: aliceAccount, user_id: `cadre-user-${alice}`, trigger_id: 'ti_1' },
        data: { x: 1 },
      });
      expect(await t.app.tools.handleComposioWebhook(Buffer.from(trigger), signed(trigger))).toMatchObject({
        ok: true,
        event: { userIds: [alice] },
      });

      const expired = JSON.stringify({
        type: 'composio.connected_account.expired',
        data: { id: aliceAccount, toolkit: { slug: 'serpapi' } },
      });
      const headers = signed(expired, 'msg_same');
      expect(await t.app.tools.handleComposioWebhook(Buffer.from(expired), headers)).toMatchObject({
        ok: true,
        event: { userIds: [alice] },
      });
      expect((await t.app.services.listServicesForUser(alice)).find((s) => s.id === serp)?.status).toBe(
        'INACTIVE',
      );
      expect((await t.app.services.listServicesForUser(bob)).find((s) => s.id === serp)?.status).toBe(
        'ACTIVE',
      );
      // Reconnect, then the same delivery again: a replay, ignored.
      await t.app.services.registerApiService(serp, alice, 'k-alice-2');
      const replay = await t.app.tools.handleComposioWebhook(Buffer.from(expired), headers);
      expect(replay).toMatchObject({ ok: true, event: { duplicate: true } });
      expect((await t.app.services.listServicesForUser(alice)).find((s) => s.id === serp)?.status).toBe(
        'ACTIVE',
      );
      expect(await t.app.tools.handleComposioWebhook(Buffer.from('{bad'), { ...signed('x') })).toMatchObject({
        ok: false,
        code: 'unauthorized',
      });
    });
  });
});
