import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const API = '/backend/api/v1';

/**
 * Issue 18 items 3 and 4, end to end over HTTP: the official `openai` client and the MCP SDK's
 * client against the running server, with API keys, the offline model and the built-in tools.
 */
describe(`agents from code (OpenAI-compatible API, MCP) on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let base: string;
  let alice: { authorization: string };
  let bob: { authorization: string };
  let calculatorAgent: number;
  let notesAgent: number;
  let bobAgent: number;
  let chatKey: string;
  let limitedKey: string;
  let readKey: string;

  const call = (method: string, url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method: method as 'GET', url, headers, payload });
  const serviceId = async (name: string) =>
    (await call('GET', `${API}/services/`, alice))
      .json<{ id: number; name: string }[]>()
      .find((s) => s.name === name)!.id;
  const actionId = async (service: string, name: string) =>
    (
      await t.db.kysely
        .selectFrom('actions')
        .select('id')
        .where('service_id', '=', await serviceId(service))
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
    ).id;
  const newAgent = async (
    auth: Record<string, string>,
    name: string,
    description: string,
    toolIds: number[],
  ) => {
    const res = await call('POST', `${API}/agents/`, auth, { name, description, tool_ids: toolIds });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  };
  const newKey = async (body: object) => {
    const res = await call('POST', `${API}/api-keys`, alice, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ key: string }>().key;
  };
  const openai = (apiKey: string) =>
    new OpenAI({ apiKey, baseURL: `${base}/backend/openai/v1`, maxRetries: 0 });

  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp({ ...issuer.env, CHAT_TURNS_PER_MINUTE: '1000' });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    ({ auth: alice } = await signInAs(t, issuer, { sub: 'alice', email: 'alice@example.com' }));
    ({ auth: bob } = await signInAs(t, issuer, { sub: 'bob' }));
    for (const name of ['Calculator', 'Notes']) {
      expect(
        (await call('POST', `${API}/services/${await serviceId(name)}/register_noauth_service`, alice))
          .statusCode,
      ).toBe(200);
    }
    calculatorAgent = await newAgent(alice, 'Sum Helper', 'Adds numbers for you', [
      await actionId('Calculator', 'add'),
    ]);
    notesAgent = await newAgent(alice, 'Note Taker', 'Keeps notes', [await actionId('Notes', 'create_note')]);
    bobAgent = await newAgent(bob, 'Bob agent', 'Bob only', []);
    chatKey = await newKey({ name: 'all', scopes: ['chat'] });
    limitedKey = await newKey({ name: 'one', scopes: ['chat', 'agents:read'], agent_ids: [calculatorAgent] });
    readKey = await newKey({ name: 'read', scopes: ['agents:read'] });
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  it('lists the agents a key allows as models', async () => {
    const all = await openai(chatKey).models.list();
    expect(all.data.map((m) => m.id)).toEqual([String(calculatorAgent), String(notesAgent)]);
    expect(all.data[0]).toMatchObject({
      object: 'model',
      owned_by: 'alice@example.com',
      name: 'Sum Helper',
      description: 'Adds numbers for you',
    });
    expect(all.data[0]!.created).toBeGreaterThan(1_700_000_000);
    expect((await openai(limitedKey).models.list()).data.map((m) => m.id)).toEqual([String(calculatorAgent)]);
    expect((await openai(readKey).models.list()).data).toHaveLength(2);
    // A sign-in token works where a key does.
    const token = alice.authorization.slice('Bearer '.length);
    expect((await openai(token).models.list()).data).toHaveLength(2);
  });

  it('runs an agent without streaming, with its tool and usage filled in', async () => {
    const completion = await openai(chatKey).chat.completions.create({
      model: String(calculatorAgent),
      messages: [{ role: 'user', content: 'add 17 and 25' }],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe(String(calculatorAgent));
    expect(completion.choices[0]!.message.content).toContain('42');
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(completion.usage!.completion_tokens).toBeGreaterThan(0);
    expect(completion.usage!.total_tokens).toBe(
      completion.usage!.prompt_tokens + completion.usage!.completion_tokens,
    );
    // The run is a thread of the agent, like a chat, marked as coming from the API.
    const threadId = completion.id.replace(/^chatcmpl-/, '');
    const thread = await t.db.kysely
      .selectFrom('threads')
      .selectAll()
      .where('id', '=', threadId)
      .executeTakeFirst();
    expect(thread).toMatchObject({ agent_id: calculatorAgent, origin: 'api' });
    const runs = await t.db.kysely
      .selectFrom('chat_runs')
      .selectAll()
      .where('thread_id', '=', threadId)
      .execute();
    expect(runs.every((r) => r.status !== 'running')).toBe(true);
  });

  it('streams chunks, then usage, then [DONE]', async () => {
    const stream = await openai(limitedKey).chat.completions.create({
      model: String(calculatorAgent),
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'add 17 and 25' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).toContain('42');
    expect(chunks.filter((c) => c.choices[0]?.finish_reason === 'stop')).toHaveLength(1);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage!.total_tokens).toBeGreaterThan(0);

    const raw = await fetch(`${base}/backend/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${chatKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: String(calculatorAgent),
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      }),
    });
    expect(raw.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await raw.text()).trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  const allowUnattendedWrites = (agentId: number, allow: boolean) =>
    t.db.kysely
      .updateTable('agents')
      .set({ allow_unattended_writes: allow ? 1 : 0 })
      .where('id', '=', agentId)
      .execute();

  it('refuses a write call with a clear error when the owner never allows unattended writes (the default)', async () => {
    await allowUnattendedWrites(notesAgent, false);
    const refused = openai(chatKey).chat.completions.create({
      model: String(notesAgent),
      messages: [{ role: 'user', content: 'note down: call the bank' }],
    });
    await expect(refused).rejects.toMatchObject({
      status: 403,
      type: 'permission_error',
      code: 'write_refused',
    });
    await expect(refused).rejects.toThrow(/does not allow write or send actions outside Cadre.*create_note/);
    const stream = await openai(chatKey).chat.completions.create({
      model: String(notesAgent),
      messages: [{ role: 'user', content: 'note down: call the bank' }],
      stream: true,
    });
    await expect(async () => {
      for await (const chunk of stream) void chunk;
    }).rejects.toMatchObject({ code: 'write_refused' });
    expect(await t.db.kysely.selectFrom('notes').selectAll().execute()).toEqual([]);
    expect(await t.db.kysely.selectFrom('approvals').selectAll().execute()).toEqual([]);
  });

  it('ends a write call with a link to approve it in Cadre, and runs nothing', async () => {
    await allowUnattendedWrites(notesAgent, true);
    const completion = await openai(chatKey).chat.completions.create({
      model: String(notesAgent),
      messages: [{ role: 'user', content: 'note down: call the bank' }],
    });
    const content = completion.choices[0]!.message.content!;
    const threadId = completion.id.replace(/^chatcmpl-/, '');
    expect(content).toContain('needs your approval');
    expect(content).toContain(`http://cadre.test/agents/${notesAgent}/chat/${threadId}`);
    const approvals = await t.db.kysely
      .selectFrom('approvals')
      .selectAll()
      .where('thread_id', '=', threadId)
      .execute();
    expect(approvals).toEqual([expect.objectContaining({ status: 'pending' })]);
    expect(await t.db.kysely.selectFrom('notes').selectAll().execute()).toEqual([]);
  });

  it('a person’s "Allow without asking" holds in the chat only: an API caller still needs the approval', async () => {
    await allowUnattendedWrites(notesAgent, true);
    const note = await actionId('Notes', 'create_note');
    const permission = `${API}/agents/${notesAgent}/tool-permissions/${note}`;
    expect((await call('PUT', permission, alice, { mode: 'allow' })).statusCode).toBe(200);
    try {
      const completion = await openai(chatKey).chat.completions.create({
        model: String(notesAgent),
        messages: [{ role: 'user', content: 'note down: call the bank' }],
      });
      expect(completion.choices[0]!.message.content).toContain('needs your approval');
      expect(await t.db.kysely.selectFrom('notes').selectAll().execute()).toEqual([]);
    } finally {
      await call('PUT', permission, alice, { mode: 'ask' });
    }
  });

  it('answers errors in OpenAI’s shape: a key limited to agent A gets 404 for B, bad input names the field', async () => {
    const limited = openai(limitedKey);
    await expect(
      limited.chat.completions.create({
        model: String(notesAgent),
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    await expect(
      openai(chatKey).chat.completions.create({
        model: String(bobAgent),
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    await expect(
      openai(readKey).chat.completions.create({
        model: String(calculatorAgent),
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toMatchObject({ status: 403, type: 'permission_error' });
    for (const model of ['gpt-4o', '99999999999', '0']) {
      await expect(
        openai(chatKey).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }),
      ).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    }
    await expect(openai('cadre_not-a-key').models.list()).rejects.toMatchObject({ status: 401 });

    const bad = await call(
      'POST',
      '/backend/openai/v1/chat/completions',
      { authorization: `Bearer ${chatKey}` },
      {
        model: String(calculatorAgent),
        messages: [{ role: 'tool', content: 'x' }],
      },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ type: 'invalid_request_error', param: 'messages[0].role' });
    const empty = await call(
      'POST',
      '/backend/openai/v1/chat/completions',
      { authorization: `Bearer ${chatKey}` },
      {
        model: String(calculatorAgent),
        messages: [],
      },
    );
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.param).toBe('messages');
    const last = await call(
      'POST',
      '/backend/openai/v1/chat/completions',
      { authorization: `Bearer ${chatKey}` },
      {
        model: String(calculatorAgent),
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
        ],
      },
    );
    expect(last.statusCode).toBe(400);
    expect(last.json().error.param).toBe('messages[1].role');
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/backend/openai/v1/chat/completions',
      headers: { authorization: `Bearer ${chatKey}`, 'content-type': 'application/json' },
      payload: '{',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error.type).toBe('invalid_request_error');
  });

  it('serves each agent as an MCP server whose one tool runs the agent', async () => {
    const connect = async (key: string, agentId: number) => {
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/backend/mcp/${agentId}`), {
          requestInit: { headers: { authorization: `Bearer ${key}` } },
        }),
      );
      return client;
    };
    const client = await connect(limitedKey, calculatorAgent);
    try {
      const { tools } = await client.listTools();
      expect(tools).toEqual([
        expect.objectContaining({ name: 'ask_sum_helper', description: 'Adds numbers for you' }),
      ]);
      expect(tools[0]!.inputSchema).toMatchObject({ type: 'object', required: ['message'] });
      const result = await client.callTool({
        name: 'ask_sum_helper',
        arguments: { message: 'add 17 and 25' },
      });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.content)).toContain('42');
    } finally {
      await client.close();
    }

    const notes = await connect(chatKey, notesAgent);
    try {
      await allowUnattendedWrites(notesAgent, false);
      const refused = await notes.callTool({
        name: 'ask_note_taker',
        arguments: { message: 'note down: call the bank' },
      });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('does not allow write or send actions');
      await allowUnattendedWrites(notesAgent, true);
      const result = await notes.callTool({
        name: 'ask_note_taker',
        arguments: { message: 'note down: call the bank' },
      });
      expect(JSON.stringify(result.content)).toContain(`/agents/${notesAgent}/chat/`);
    } finally {
      await notes.close();
    }

    // A key limited to another agent, and Bob's agent: not found.
    await expect(connect(limitedKey, notesAgent)).rejects.toThrow();
    const bobs = await fetch(`${base}/backend/mcp/${bobAgent}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${chatKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(bobs.status).toBe(404);
  });
});
