import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_MAX_BATCH } from '../src/modules/agent-api/mcp-routes.ts';
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
    expect(all.data.map((m) => m.id)).toEqual([`sum-helper-${calculatorAgent}`, `note-taker-${notesAgent}`]);
    expect(all.data[0]).toMatchObject({
      object: 'model',
      owned_by: 'cadre',
      name: 'Sum Helper',
      description: 'Adds numbers for you',
    });
    expect(all.data[0]!.created).toBeGreaterThan(1_700_000_000);
    expect((await openai(limitedKey).models.list()).data.map((m) => m.id)).toEqual([
      `sum-helper-${calculatorAgent}`,
    ]);
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
    // The numeric id still names the agent; the answer says the model id it is listed by.
    expect(completion.model).toBe(`sum-helper-${calculatorAgent}`);
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

  const setApiWrites = async (agentId: number, mode: 'approve' | 'refuse') => {
    const res = await call('PATCH', `${API}/agents/${agentId}`, alice, { api_writes: mode });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().api_writes).toBe(mode);
  };
  const threadOf = (completion: { id: string }) => completion.id.replace(/^chatcmpl-/, '');
  const messagesOf = async (threadId: string) =>
    (
      await t.db.kysely
        .selectFrom('messages')
        .select(['role', 'parts', 'status'])
        .where('thread_id', '=', threadId)
        .orderBy('created_at')
        .execute()
    ).map((m) => ({ ...m, parts: JSON.parse(m.parts) as { type: string; state?: string; text?: string }[] }));
  const approvalsOf = (threadId: string) =>
    t.db.kysely.selectFrom('approvals').selectAll().where('thread_id', '=', threadId).execute();
  const notes = () => t.db.kysely.selectFrom('notes').selectAll().execute();
  /** The owner in Cadre's chat with the notes agent (the chat frame's cookie session). */
  const chatHeaders = async () => {
    const session = await call('POST', '/chainlit/auth/header', {
      ...alice,
      'x-agent-id': String(notesAgent),
    });
    const cookie = session.cookies.find((c) => c.name === 'cadre_chat_session')!;
    return {
      cookie: `${cookie.name}=${cookie.value}`,
      origin: 'http://cadre.test',
      'x-requested-with': 'cadre-chat',
    };
  };
  /** The owner decides in Cadre's chat, on the thread the link opens. */
  const decideInCadre = async (approvalId: string, decision: 'approve' | 'deny') => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/chainlit/approvals/${approvalId}/${decision}`,
      headers: await chatHeaders(),
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const askNote = (messages: { role: 'user' | 'assistant'; content: string }[]) =>
    openai(chatKey).chat.completions.create({ model: String(notesAgent), messages });

  it('by default ends a write call with a link to approve it in Cadre, while triggers still refuse writes', async () => {
    const agent = (await call('GET', `${API}/agents/${notesAgent}/agent`, alice)).json();
    expect(agent).toMatchObject({ api_writes: 'approve', allow_unattended_writes: false });
    const completion = await askNote([{ role: 'user', content: 'note down: call the bank' }]);
    const content = completion.choices[0]!.message.content!;
    const threadId = threadOf(completion);
    expect(content).toContain('needs your approval');
    expect(content).toContain(`http://cadre.test/agents/${notesAgent}/chat/${threadId}`);
    expect(await approvalsOf(threadId)).toEqual([expect.objectContaining({ status: 'pending' })]);
    expect(await notes()).toEqual([]);
  });

  it('goes on in the thread once the owner decided: asked again before, it only says it still waits', async () => {
    const first = await askNote([{ role: 'user', content: 'note down: call the bank' }]);
    const threadId = threadOf(first);
    const answer = first.choices[0]!.message.content!;
    const conversation = [
      { role: 'user' as const, content: 'note down: call the bank' },
      { role: 'assistant' as const, content: answer },
    ];

    // Not decided yet: nothing runs, nothing is stored, the answer points at the approval again.
    const early = await askNote([...conversation, { role: 'user', content: 'is it done?' }]);
    expect(threadOf(early)).toBe(threadId);
    expect(early.choices[0]!.message.content).toMatch(/still waits for your approval \(create_note\)/);
    expect(early.choices[0]!.message.content).toContain(`/agents/${notesAgent}/chat/${threadId}`);
    expect(await messagesOf(threadId)).toHaveLength(2);
    const [approval] = await approvalsOf(threadId);
    expect(approval!.status).toBe('pending');

    await decideInCadre(approval!.id, 'approve');
    expect(await notes()).toEqual([
      expect.objectContaining({ title: expect.stringContaining('call the bank') }),
    ]);

    // The caller's next call goes on in that thread: the stored run (with the approved call's
    // result) is the history, and only the caller's new message is added to it.
    const next = await askNote([
      ...conversation,
      { role: 'user', content: 'is it done?' },
      { role: 'assistant', content: early.choices[0]!.message.content! },
      { role: 'user', content: 'thank you' },
    ]);
    expect(threadOf(next)).toBe(threadId);
    expect(next.choices[0]!.finish_reason).toBe('stop');
    expect(next.choices[0]!.message.content).not.toContain('approval');
    const stored = await messagesOf(threadId);
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(stored[1]!.parts).toContainEqual(expect.objectContaining({ state: 'output-available' }));
    expect(stored[2]!.parts).toEqual([{ type: 'text', text: 'thank you' }]);
    expect(stored[3]!.status).toBe('complete');
    expect(await notes()).toHaveLength(1);
    await t.db.kysely.deleteFrom('notes').execute();
  });

  it('lets an approval that expired lapse when the conversation goes on, and runs nothing of it', async () => {
    const first = await askNote([{ role: 'user', content: 'note down: call the bank' }]);
    const threadId = threadOf(first);
    await t.db.kysely
      .updateTable('approvals')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('thread_id', '=', threadId)
      .execute();
    const next = await askNote([
      { role: 'user', content: 'note down: call the bank' },
      { role: 'assistant', content: first.choices[0]!.message.content! },
      { role: 'user', content: 'thank you' },
    ]);
    expect(threadOf(next)).toBe(threadId);
    expect(next.choices[0]!.message.content).not.toContain('still waits');
    expect(await approvalsOf(threadId)).toEqual([expect.objectContaining({ status: 'expired' })]);
    expect((await messagesOf(threadId))[1]!.parts).toContainEqual(
      expect.objectContaining({ state: 'output-denied' }),
    );
    expect(await notes()).toEqual([]);
  });

  it('a link to a thread the caller cannot continue starts a new thread with the whole conversation', async () => {
    // A thread of the owner's own chat (not an API run), and a made-up one.
    const chatThread = await t.app.inject({
      method: 'POST',
      url: '/chainlit/threads',
      headers: await chatHeaders(),
      payload: { name: 'In the chat' },
    });
    expect(chatThread.statusCode, chatThread.body).toBe(201);
    for (const threadId of [chatThread.json().id as string, crypto.randomUUID()]) {
      const completion = await askNote([
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: `Approve it: http://cadre.test/agents/${notesAgent}/chat/${threadId}` },
        { role: 'user', content: 'thank you' },
      ]);
      expect(threadOf(completion)).not.toBe(threadId);
      expect((await messagesOf(threadOf(completion))).map((m) => m.role)).toEqual([
        'user',
        'assistant',
        'user',
        'assistant',
      ]);
    }
    expect(await messagesOf(chatThread.json().id)).toEqual([]);
  });

  it('refuses a write call with a clear error when the owner chose to refuse them, and audits the choice', async () => {
    await setApiWrites(notesAgent, 'refuse');
    try {
      const refused = askNote([{ role: 'user', content: 'note down: call the bank' }]);
      await expect(refused).rejects.toMatchObject({
        status: 403,
        type: 'permission_error',
        code: 'write_refused',
      });
      await expect(refused).rejects.toThrow(
        /refuses write and send actions asked through the API or MCP.*"Write actions asked through the API or MCP": "Refuse them".*create_note/,
      );
      const stream = await openai(chatKey).chat.completions.create({
        model: String(notesAgent),
        messages: [{ role: 'user', content: 'note down: call the bank' }],
        stream: true,
      });
      await expect(async () => {
        for await (const chunk of stream) void chunk;
      }).rejects.toMatchObject({ code: 'write_refused' });
      expect(await notes()).toEqual([]);
      const audit = await t.db.kysely
        .selectFrom('audit_events')
        .select(['action', 'detail'])
        .where('action', '=', 'agent.api_writes')
        .where('object_id', '=', String(notesAgent))
        .execute();
      expect(audit.map((a) => JSON.parse(a.detail!))).toEqual([{ mode: 'refuse' }]);
    } finally {
      await setApiWrites(notesAgent, 'approve');
    }
  });

  it('a person’s "Allow without asking" holds in the chat only: an API caller still needs the approval', async () => {
    const note = await actionId('Notes', 'create_note');
    const permission = `${API}/agents/${notesAgent}/tool-permissions/${note}`;
    expect((await call('PUT', permission, alice, { mode: 'allow' })).statusCode).toBe(200);
    try {
      const completion = await askNote([{ role: 'user', content: 'note down: call the bank' }]);
      expect(completion.choices[0]!.message.content).toContain('needs your approval');
      expect(await notes()).toEqual([]);
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
    ).rejects.toMatchObject({ status: 404, code: 'not_found', param: 'model' });
    await expect(
      openai(chatKey).chat.completions.create({
        model: String(bobAgent),
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(
      openai(readKey).chat.completions.create({
        model: String(calculatorAgent),
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toMatchObject({ status: 403, type: 'permission_error', code: 'forbidden' });
    for (const model of ['gpt-4o', '99999999999', '0']) {
      await expect(
        openai(chatKey).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }),
      ).rejects.toMatchObject({ status: 404, code: 'not_found' });
    }
    await expect(openai('cadre_not-a-key').models.list()).rejects.toMatchObject({
      status: 401,
      type: 'authentication_error',
      code: 'unauthorized',
    });

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
    expect(bad.json().error).toMatchObject({
      type: 'invalid_request_error',
      param: 'messages[0].role',
      code: 'bad_request',
    });
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
    expect(notJson.json().error).toMatchObject({ type: 'invalid_request_error', code: 'bad_request' });
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

    const noteTaker = await connect(chatKey, notesAgent);
    const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
      (result.content as { type: string; text: string }[]).map((c) => c.text).join('');
    try {
      const { tools: noteTools } = await noteTaker.listTools();
      expect(Object.keys(noteTools[0]!.inputSchema.properties ?? {})).toEqual(['message', 'continue_from']);
      const asked = await noteTaker.callTool({
        name: 'ask_note_taker',
        arguments: { message: 'note down: call the bank' },
      });
      expect(asked.isError).toBeFalsy();
      const link = /http:\/\/cadre\.test\/agents\/\d+\/chat\/[0-9a-f-]{36}/.exec(textOf(asked))?.[0];
      expect(link).toContain(`/agents/${notesAgent}/chat/`);
      const threadId = link!.split('/').at(-1)!;
      const [approval] = await approvalsOf(threadId);
      await decideInCadre(approval!.id, 'deny');
      // The next call names the link: the conversation goes on in that thread, after the denial.
      const after = await noteTaker.callTool({
        name: 'ask_note_taker',
        arguments: { message: 'thank you', continue_from: link },
      });
      expect(after.isError).toBeFalsy();
      const stored = await messagesOf(threadId);
      expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
      expect(stored[1]!.parts).toContainEqual(expect.objectContaining({ state: 'output-denied' }));
      const notALink = await noteTaker.callTool({
        name: 'ask_note_taker',
        arguments: { message: 'thank you', continue_from: 'https://example.com/somewhere' },
      });
      expect(notALink.isError).toBe(true);
      expect(textOf(notALink)).toMatch(/^continue_from: not an approval link of this agent/);

      await setApiWrites(notesAgent, 'refuse');
      const refused = await noteTaker.callTool({
        name: 'ask_note_taker',
        arguments: { message: 'note down: call the bank' },
      });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('refuses write and send actions asked through the API or MCP');
      expect(await notes()).toEqual([]);
    } finally {
      await setApiWrites(notesAgent, 'approve');
      await noteTaker.close();
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

/**
 * One MCP request carrying a JSON-RPC batch: at most MCP_MAX_BATCH messages (a longer batch is
 * refused whole with a JSON-RPC error and runs nothing), and each `tools/call` in it counts against
 * CHAT_TURNS_PER_MINUTE as a request of its own would.
 */
describe(`an MCP request's JSON-RPC batch, on ${testDatabaseKind()}`, () => {
  const TURNS_PER_MINUTE = 3;
  let issuer: TestIssuer;
  let t: TestApp;
  let agentId: number;
  let key: string;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp({ ...issuer.env, CHAT_TURNS_PER_MINUTE: String(TURNS_PER_MINUTE) });
    const { auth } = await signInAs(t, issuer, { sub: 'batcher' });
    const agent = await t.app.inject({
      method: 'POST',
      url: `${API}/agents/`,
      headers: auth,
      payload: { name: 'Batch', description: 'answers', tool_ids: [] },
    });
    agentId = agent.json<{ id: number }>().id;
    const created = await t.app.inject({
      method: 'POST',
      url: `${API}/api-keys`,
      headers: auth,
      payload: { name: 'mcp', scopes: ['chat'] },
    });
    key = created.json<{ key: string }>().key;
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  const toolCall = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'ask_batch', arguments: { message: `question ${id}` } },
  });
  const post = (body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/backend/mcp/${agentId}`,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      payload: JSON.stringify(body),
    });
  const runs = async () =>
    Number(
      (
        await t.db.kysely
          .selectFrom('threads')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a batch of more than MCP_MAX_BATCH messages whole, with a JSON-RPC error, and runs nothing', async () => {
    for (const length of [MCP_MAX_BATCH + 1, 40]) {
      const res = await post(Array.from({ length }, (_, i) => toolCall(i + 1)));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message: `Invalid Request: a batch holds at most ${MCP_MAX_BATCH} messages; this one holds ${length}. Send the rest in further requests.`,
        },
        id: null,
      });
    }
    const empty = await post([]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({
      error: { code: -32600, message: 'Invalid Request: an empty batch' },
    });
    expect(await runs()).toBe(0);
  });

  it('counts each tools/call of a batch against the turn rate limit, as separate requests would be', async () => {
    await t.db.kysely.deleteFrom('rate_limits').execute();
    const res = await post(Array.from({ length: TURNS_PER_MINUTE + 2 }, (_, i) => toolCall(i + 1)));
    expect(res.statusCode).toBe(200);
    const answers = res.json<{ id: number; result: { isError?: boolean; content: { text: string }[] } }[]>();
    expect(answers).toHaveLength(TURNS_PER_MINUTE + 2);
    const limited = answers.filter((a) => a.result.isError);
    expect(limited).toHaveLength(2);
    for (const a of limited) expect(a.result.content[0]!.text).toBe('Too many chat messages; wait a moment');
    expect(await runs()).toBe(TURNS_PER_MINUTE);
    // The batch used the minute's turns: the next request, alone, is refused as well.
    const single = await post(toolCall(99));
    expect(single.json()).toMatchObject({ result: { isError: true } });
    expect(await runs()).toBe(TURNS_PER_MINUTE);
  });
});
