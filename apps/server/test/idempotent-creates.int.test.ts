import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody } from './support/knowledge-files.ts';
import { startMcpServer, type TestMcpServer } from './support/mcp-server.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const API = '/backend/api/v1';

/**
 * `Idempotency-Key` on the create endpoints beyond agents and trigger events: an import, a knowledge
 * file upload, a custom MCP server and a chat thread. A retry with the key answers with the first result and creates
 * nothing more; the same key with another request is refused naming the header.
 */
describe(`idempotent creates on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let mcp: TestMcpServer;
  let t: TestApp;
  let auth: Record<string, string>;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    mcp = await startMcpServer();
    t = await createTestApp({ ...issuer.env, EGRESS_ALLOW_PRIVATE: '127.0.0.1' });
    ({ auth } = await signInAs(t, issuer, { sub: 'ivy', email: 'ivy@example.com' }));
  });
  afterAll(async () => {
    await t?.close();
    await mcp?.close();
    await issuer?.close();
  });

  const send = (url: string, payload: object, key: string, headers: Record<string, string> = auth) =>
    t.app.inject({ method: 'POST', url, headers: { ...headers, 'idempotency-key': key }, payload });
  const count = async (table: 'agents' | 'services' | 'threads') =>
    (await t.db.kysely.selectFrom(table).select('id').execute()).length;

  // A client whose first request is slow retries at once, and the proxy sends the retry to another
  // instance: both run together, and the one whose key row loses answers with the winner's result.
  it('two requests with one key at once, on two instances, create one agent and both answer with it', async () => {
    const other = await createTestApp(
      { ...issuer.env, EGRESS_ALLOW_PRIVATE: '127.0.0.1' },
      {},
      { sameDatabaseAs: t },
    );
    try {
      const before = await count('agents');
      const key = crypto.randomUUID();
      const payload = { name: 'Raced', description: 'Sent twice at once', tool_ids: [] };
      const headers = { ...auth, 'idempotency-key': key };
      const answers = await Promise.all(
        [t, other].map((app) => app.app.inject({ method: 'POST', url: `${API}/agents/`, headers, payload })),
      );
      expect(answers.map((a) => a.statusCode)).toEqual([201, 201]);
      expect(answers[1]!.json()).toEqual(answers[0]!.json());
      expect(await count('agents')).toBe(before + 1);
    } finally {
      await other.close();
    }
  });

  it('imports an agent once for one key', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `${API}/agents/`,
      headers: auth,
      payload: { name: 'Original', description: 'To export', tool_ids: [] },
    });
    const exported = (
      await t.app.inject({ url: `${API}/agents/${created.json().id}/export`, headers: auth })
    ).json();
    const before = await count('agents');
    const key = crypto.randomUUID();
    const first = await send(`${API}/agents/import`, exported, key);
    const retry = await send(`${API}/agents/import`, exported, key);
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(await count('agents')).toBe(before + 1);
    const other = await send(
      `${API}/agents/import`,
      { ...exported, agent: { ...exported.agent, name: 'Else' } },
      key,
    );
    expect(other.statusCode).toBe(422);
    expect(other.json().detail[0].loc).toEqual(['headers', 'idempotency-key']);
  });

  it("attaches an uploaded knowledge file once for one key, whatever the retry's multipart boundary", async () => {
    const newAgent = async (name: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `${API}/agents/`,
          headers: auth,
          payload: { name, description: 'Reads files', tool_ids: [] },
        })
      ).json<{ id: number }>().id;
    const [first, second] = [await newAgent('Reader'), await newAgent('Other reader')];
    const upload = async (agentId: number, text: string, key: string) => {
      // A new FormData each time: a browser's retry has another boundary, the same file.
      const body = await multipartBody([{ field: 'file', name: 'prices.md', bytes: text }]);
      return t.app.inject({
        method: 'POST',
        url: `${API}/agents/${agentId}/files`,
        headers: { ...auth, ...body.headers, 'idempotency-key': key },
        payload: body.payload,
      });
    };
    const files = async () => (await t.db.kysely.selectFrom('knowledge_files').select('id').execute()).length;
    const before = await files();
    const key = crypto.randomUUID();
    const once = await upload(first, '# Prices\n\nTea costs 3 euros.', key);
    const again = await upload(first, '# Prices\n\nTea costs 3 euros.', key);
    expect(once.statusCode, once.body).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(once.json());
    expect(await files()).toBe(before + 1);
    // The same key for other bytes, or for the same file on another agent, is another request.
    for (const other of [
      await upload(first, '# Prices\n\nTea costs 4 euros.', key),
      await upload(second, '# Prices\n\nTea costs 3 euros.', key),
    ]) {
      expect(other.statusCode).toBe(422);
      expect(other.json().detail[0].loc).toEqual(['headers', 'idempotency-key']);
    }
    expect(await files()).toBe(before + 1);
  });

  it('adds a custom MCP server once for one key; its token is not part of what the key remembers', async () => {
    const before = await count('services');
    const key = crypto.randomUUID();
    const body = { name: 'Retried MCP', url: mcp.url, bearer_token: `sk-${crypto.randomUUID()}` };
    const first = await send(`${API}/services/custom_mcp`, body, key);
    expect(first.statusCode).toBe(201);
    // Only a hash of the request is kept, and not of the token: a retry is known by the rest.
    const retry = await send(`${API}/services/custom_mcp`, { ...body, bearer_token: 'another' }, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(await count('services')).toBe(before + 1);
    const renamed = await send(`${API}/services/custom_mcp`, { ...body, name: 'Renamed' }, key);
    expect(renamed.statusCode).toBe(422);
  });

  it("creates a chat thread once for one key, separately in each agent's chat", async () => {
    const chatOf = async (name: string) => {
      const agent = await t.app.inject({
        method: 'POST',
        url: `${API}/agents/`,
        headers: auth,
        payload: { name, description: 'Chats', tool_ids: [] },
      });
      const session = await t.app.inject({
        method: 'POST',
        url: '/chainlit/auth/header',
        headers: { ...auth, 'x-agent-id': String(agent.json().id) },
      });
      const cookie = session.cookies.find((c) => c.name === 'cadre_chat_session')!;
      return {
        cookie: `cadre_chat_session=${cookie.value}`,
        origin: 'http://cadre.test',
        'x-requested-with': 'cadre-chat',
      };
    };
    const [first, second] = [await chatOf('First'), await chatOf('Second')];
    const before = await count('threads');
    const key = crypto.randomUUID();
    const a = await send('/chainlit/threads', { name: 'Plans' }, key, first);
    const again = await send('/chainlit/threads', { name: 'Plans' }, key, first);
    expect(a.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(a.json());
    // The same key in another agent's chat is another request's: its own thread.
    const elsewhere = await send('/chainlit/threads', { name: 'Plans' }, key, second);
    expect(elsewhere.statusCode).toBe(201);
    expect(elsewhere.json().id).not.toBe(a.json().id);
    expect(await count('threads')).toBe(before + 2);
  });

  it('creates an API key once for one key: the retry shows the same key, which is stored only sealed', async () => {
    const keys = async () => (await t.db.kysely.selectFrom('api_keys').select('id').execute()).length;
    const before = await keys();
    const idempotencyKey = crypto.randomUUID();
    const body = { name: 'Retried key', scopes: ['agents:read'] };
    const first = await send(`${API}/api-keys`, body, idempotencyKey);
    const retry = await send(`${API}/api-keys`, body, idempotencyKey);
    expect(first.statusCode, first.body).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(await keys()).toBe(before + 1);
    // The answer kept for the retry names the key only sealed: the table is no way to read it.
    const stored = await t.db.kysely.selectFrom('idempotency_keys').select('response').execute();
    expect(stored.some((row) => row.response.includes(first.json().key))).toBe(false);
  });

  it('stores a chat turn sent again under one key once, and says where its answer is', async () => {
    const agent = await send(
      `${API}/agents/`,
      { name: 'Talker', description: 'Talks', tool_ids: [] },
      crypto.randomUUID(),
    );
    const agentId = agent.json<{ id: number }>().id;
    const session = await t.app.inject({
      method: 'POST',
      url: '/chainlit/auth/header',
      headers: { ...auth, 'x-agent-id': String(agentId) },
    });
    const cookie = session.cookies.find((c) => c.name === 'cadre_chat_session')!;
    const chat = {
      cookie: `cadre_chat_session=${cookie.value}`,
      origin: 'http://cadre.test',
      'x-requested-with': 'cadre-chat',
    };
    const threadId = crypto.randomUUID();
    const turn = {
      id: threadId,
      trigger: 'submit-message',
      messages: [{ id: 'msg-retried-1', role: 'user', parts: [{ type: 'text', text: 'Hello' }] }],
    };
    const key = crypto.randomUUID();
    const first = await send('/chainlit/chat', turn, key, chat);
    expect(first.statusCode, first.body).toBe(200);
    const retry = await send('/chainlit/chat', turn, key, chat);
    // Busy while the first answer is still being written, then "already sent": never a second turn.
    expect(retry.statusCode).toBe(409);
    expect(['run_in_progress', 'conflict']).toContain(retry.json().code);
    const messages = await t.db.kysely
      .selectFrom('messages')
      .select('role')
      .where('thread_id', '=', threadId)
      .execute();
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    // Another message with another key is a new turn.
    const next = {
      ...turn,
      messages: [{ id: 'msg-retried-2', role: 'user', parts: [{ type: 'text', text: 'Again' }] }],
    };
    expect((await send('/chainlit/chat', next, crypto.randomUUID(), chat)).statusCode).toBe(200);
  });
});
