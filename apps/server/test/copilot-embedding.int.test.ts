import { decodeJwt } from 'jose';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { bearer, signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const API = '/backend/api/v1';
const MINT = `${API}/auth/chainlit-copilot-login`;
const SHOP = 'https://shop.example';
const BLOG = 'https://blog.example';
const EVIL = 'https://evil.example';

/**
 * The copilot on another site (docs/api.md "Embedding the copilot", docs/security.md "Embedding"):
 * CORS only for an agent's listed origins (H1), tokens bound to one agent, one origin and one
 * visitor of the site, whose threads are theirs alone.
 */
describe(`copilot embedding on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let model: FakeOpenAi;
  let t: TestApp;
  let owner: { authorization: string };
  let shopAgent: number;
  let blogAgent: number;
  let minter: string;

  const newAgent = async (name: string, origins: string[]) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/agents/`,
      headers: owner,
      payload: { name, description: 'd', embed_origins: origins },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  const newKey = async (scopes: string[]) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/api-keys`,
      headers: owner,
      payload: { name: scopes.join(' '), scopes },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().key as string;
  };
  const mint = (key: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url: MINT, headers: bearer(key), payload: payload as object });
  const tokenFor = async (agentId: number, origin: string, endUser: string) => {
    const res = await mint(minter, {
      agent_id: agentId,
      origin,
      end_user: { id: endUser, display_name: `Visitor ${endUser}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().copilot_auth_token as string;
  };
  const chat = (token: string, origin: string | undefined, options: Omit<InjectOptions, 'headers'>) =>
    t.app.inject({
      ...options,
      headers: { ...bearer(token), ...(origin === undefined ? {} : { origin }) },
    });
  const preflight = (origin: string, url = '/chainlit/threads') =>
    t.app.inject({
      method: 'OPTIONS',
      url,
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });

  beforeAll(async () => {
    issuer = await startTestIssuer();
    // A model on the far side of HTTP: the tests read what the agent was told.
    model = await startFakeOpenAi({ tokens: 3 });
    t = await createTestApp({
      ...issuer.env,
      LLM_PROVIDER: 'openai-compatible',
      LLM_MODEL: 'fake-model',
      LLM_API_KEY: 'sk-test',
      LLM_BASE_URL: model.url,
    });
    ({ auth: owner } = await signInAs(t, issuer, { sub: 'owner' }));
    shopAgent = await newAgent('Shop helper', [SHOP, 'http://localhost:4321']);
    blogAgent = await newAgent('Blog helper', [BLOG]);
    minter = await newKey(['copilot:mint']);
  });
  afterAll(async () => {
    await t?.close();
    await model?.close();
    await issuer?.close();
  });

  it('H1: answers a preflight from a listed origin with its CORS headers, and any other origin with none', async () => {
    for (const origin of [SHOP, 'http://localhost:4321', BLOG]) {
      const res = await preflight(origin);
      expect(res.statusCode, origin).toBe(204);
      expect(res.headers['access-control-allow-origin'], origin).toBe(origin);
      expect(res.headers['access-control-allow-headers']).toMatch(/authorization/);
      // The copilot's messages carry one, or the site's browser would refuse to send them.
      expect(res.headers['access-control-allow-headers']).toMatch(/idempotency-key/);
      expect(res.headers['access-control-allow-methods']).toMatch(/POST/);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers.vary).toMatch(/Origin/i);
    }
    // Also for deeper paths (a turn, a host function's answer).
    expect((await preflight(SHOP, '/chainlit/fn-results/abc')).headers['access-control-allow-origin']).toBe(
      SHOP,
    );
    for (const origin of [
      EVIL,
      'null',
      'https://shop.example.evil.example',
      `${SHOP}:8443`,
      'http://shop.example',
    ]) {
      const res = await preflight(origin);
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(res.headers['access-control-allow-credentials'], origin).toBeUndefined();
    }
  });

  it('mints a token bound to the agent, the origin and the visitor, usable from that origin only', async () => {
    const token = await tokenFor(shopAgent, SHOP, 'visitor-a');
    expect(decodeJwt(token)).toMatchObject({ agent_id: shopAgent, origin: SHOP, end_user: 'visitor-a' });
    const fromShop = await chat(token, SHOP, { method: 'GET', url: '/chainlit/session' });
    expect(fromShop.statusCode, fromShop.body).toBe(200);
    expect(fromShop.headers['access-control-allow-origin']).toBe(SHOP);
    expect(fromShop.headers['access-control-allow-credentials']).toBeUndefined();
    expect(fromShop.json().agent.id).toBe(shopAgent);

    // From another origin (even one the agent lists, or another agent's), or with no origin: refused.
    for (const origin of [EVIL, BLOG, 'http://localhost:4321', undefined]) {
      const res = await chat(token, origin, { method: 'GET', url: '/chainlit/threads' });
      expect(res.statusCode, String(origin)).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('refuses a token minted for one agent when the request names another', async () => {
    const token = await tokenFor(shopAgent, SHOP, 'visitor-a');
    const res = await t.app.inject({
      method: 'GET',
      url: '/chainlit/threads',
      headers: { ...bearer(token), origin: SHOP, 'x-agent-id': String(blogAgent) },
    });
    expect(res.statusCode).toBe(401);
    // Minting for an origin another agent lists is refused, naming the field.
    const crossed = await mint(minter, { agent_id: shopAgent, origin: BLOG, end_user: { id: 'v' } });
    expect(crossed.statusCode).toBe(422);
    expect(crossed.json().detail[0].loc).toEqual(['body', 'origin']);
  });

  it('stops answering an origin as soon as the owner removes it from the list', async () => {
    const agent = await newAgent('Short-lived', ['https://gone.example']);
    const token = await tokenFor(agent, 'https://gone.example', 'v');
    expect(
      (await chat(token, 'https://gone.example', { method: 'GET', url: '/chainlit/threads' })).statusCode,
    ).toBe(200);
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `${API}/agents/${agent}`,
      headers: owner,
      payload: { embed_origins: [] },
    });
    expect(patched.statusCode).toBe(200);
    const after = await chat(token, 'https://gone.example', { method: 'GET', url: '/chainlit/threads' });
    expect(after.statusCode).toBe(403);
    expect(after.headers['access-control-allow-origin']).toBeUndefined();
    expect((await preflight('https://gone.example')).headers['access-control-allow-origin']).toBeUndefined();
  });

  it("gives each visitor of the site their own threads, apart from the owner's", async () => {
    const a = await tokenFor(shopAgent, SHOP, 'visitor-a');
    const b = await tokenFor(shopAgent, SHOP, 'visitor-b');
    const turn = await chat(a, SHOP, { method: 'POST', url: '/chainlit/chat', payload: { text: 'hello' } });
    expect(turn.statusCode, turn.body).toBe(200);
    expect(turn.headers['access-control-allow-origin']).toBe(SHOP);
    const threadId = turn.headers['x-thread-id'] as string;
    const created = await chat(a, SHOP, {
      method: 'POST',
      url: '/chainlit/threads',
      payload: { name: 'Mine' },
    });
    expect(created.statusCode).toBe(201);

    const listOf = async (token: string) =>
      (await chat(token, SHOP, { method: 'GET', url: '/chainlit/threads' }))
        .json()
        .data.map((th: { id: string }) => th.id);
    expect((await listOf(a)).sort()).toEqual([threadId, created.json().id].sort());
    expect(await listOf(b)).toEqual([]);
    // Visitor B cannot read, rename, stop or delete A's thread, nor send into it.
    for (const [method, url, payload] of [
      ['GET', `/chainlit/threads/${threadId}/messages`, undefined],
      ['PATCH', `/chainlit/threads/${threadId}`, { name: 'Taken' }],
      ['POST', `/chainlit/threads/${threadId}/stop`, undefined],
      ['DELETE', `/chainlit/threads/${threadId}`, undefined],
      ['POST', '/chainlit/chat', { text: 'hi', id: threadId }],
    ] as const) {
      const res = await chat(b, SHOP, { method, url, payload });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(
      (await chat(a, SHOP, { method: 'GET', url: `/chainlit/threads/${threadId}/messages` })).statusCode,
    ).toBe(200);

    // The owner's own copilot (minted while signed in, no visitor) sees none of the visitors' threads.
    const own = await t.app.inject({
      method: 'POST',
      url: MINT,
      headers: owner,
      payload: { agent_id: shopAgent },
    });
    const ownToken = own.json().copilot_auth_token as string;
    expect(decodeJwt(ownToken).end_user).toBeUndefined();
    const ownThreads = await chat(ownToken, undefined, { method: 'GET', url: '/chainlit/threads' });
    expect(ownThreads.statusCode).toBe(200);
    expect(ownThreads.json().data).toEqual([]);
    const rows = await t.db.kysely.selectFrom('threads').select(['id', 'end_user']).execute();
    expect(rows.find((r) => r.id === threadId)?.end_user).toBe('visitor-a');
  });

  it("tells the agent it talks with the site's visitor, by the name the site gave, and never so in the owner's chat", async () => {
    const systemOf = async (token: string, origin: string | undefined) => {
      const before = model.requests.length;
      const turn = await chat(token, origin, {
        method: 'POST',
        url: '/chainlit/chat',
        payload: { text: 'hi' },
      });
      expect(turn.statusCode, turn.body).toBe(200);
      const request = model.requests.slice(before).at(-1)!;
      const messages = request.body.messages as { role: string; content: string }[];
      return messages.find((m) => m.role === 'system')!.content;
    };
    const named = await mint(minter, {
      agent_id: shopAgent,
      origin: SHOP,
      end_user: { id: 'visitor-ada', display_name: 'Ada\nLovelace' },
    });
    expect(await systemOf(named.json().copilot_auth_token, SHOP)).toContain(
      'You are talking with a visitor of https://shop.example, not with your owner; the site calls them "Ada Lovelace".',
    );
    const anonymous = await mint(minter, {
      agent_id: shopAgent,
      origin: SHOP,
      end_user: { id: 'visitor-x' },
    });
    const told = await systemOf(anonymous.json().copilot_auth_token, SHOP);
    expect(told).toContain('You are talking with a visitor of https://shop.example, not with your owner.');
    expect(told).not.toContain('calls them');
    const own = await t.app.inject({
      method: 'POST',
      url: MINT,
      headers: owner,
      payload: { agent_id: shopAgent },
    });
    expect(await systemOf(own.json().copilot_auth_token, undefined)).not.toContain('visitor');
  });

  it('mints only with the copilot:mint scope, for a named visitor, and names every bad field', async () => {
    const reader = await newKey(['agents:read']);
    const refused = await mint(reader, { agent_id: shopAgent, origin: SHOP, end_user: { id: 'v' } });
    expect(refused.statusCode).toBe(403);
    for (const [payload, loc] of [
      [{}, ['body', 'agent_id']],
      [{ agent_id: shopAgent, origin: SHOP }, ['body', 'end_user']],
      // The agent lists origins: a key's token must be bound to one of them.
      [{ agent_id: shopAgent, end_user: { id: 'v' } }, ['body', 'origin']],
      [
        { agent_id: shopAgent, origin: 'https://shop.example/page', end_user: { id: 'v' } },
        ['body', 'origin'],
      ],
      [{ agent_id: shopAgent, origin: 'http://shop.example', end_user: { id: 'v' } }, ['body', 'origin']],
      [{ agent_id: shopAgent, origin: SHOP, end_user: { id: '' } }, ['body', 'end_user', 'id']],
      [{ agent_id: shopAgent, origin: SHOP, end_user: { id: 'x'.repeat(201) } }, ['body', 'end_user', 'id']],
      [{ agent_id: shopAgent, origin: SHOP, end_user: { id: 'v', extra: 1 } }, ['body', 'end_user', 'extra']],
    ] as const) {
      const res = await mint(minter, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().detail[0].loc, JSON.stringify(payload)).toEqual(loc);
    }
    // An agent that lists no origins is not embedded in pages: a key mints unbound tokens (for an
    // app or a server), which no page of another origin can use.
    const appAgent = await newAgent('App helper', []);
    const unbound = await mint(minter, { agent_id: appAgent, end_user: { id: 'app-user' } });
    expect(unbound.statusCode, unbound.body).toBe(200);
    const token = unbound.json().copilot_auth_token as string;
    expect(decodeJwt(token).origin).toBeUndefined();
    expect((await chat(token, undefined, { method: 'GET', url: '/chainlit/threads' })).statusCode).toBe(200);
    const fromPage = await chat(token, SHOP, { method: 'GET', url: '/chainlit/threads' });
    expect(fromPage.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('keeps refusing cookie-authenticated changes from another origin, with no CORS headers', async () => {
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/chainlit/auth/header',
      headers: { ...owner, 'x-agent-id': String(shopAgent) },
    });
    expect(signIn.statusCode).toBe(200);
    const cookie = signIn.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const res = await t.app.inject({
      method: 'POST',
      url: '/chainlit/threads',
      headers: {
        cookie,
        origin: SHOP,
        'x-requested-with': 'cadre-chat',
        'x-agent-id': String(shopAgent),
      },
      payload: { name: 'x' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
