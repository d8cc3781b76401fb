import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const API = '/backend/api/v1';

/** A tool step as Cadre's `cadre` extension reports it (docs/api.md, "Tool steps"). */
interface Step {
  id: string;
  name: string;
  title: string;
  arguments: unknown;
  status: string;
  result?: unknown;
}

/**
 * Issue 30 item 1 with the official `openai` client against the running server: what the agent did
 * (tool steps on chat completions, tool calls as Responses output items), the generation settings
 * every model honours or refuses by name, and model ids.
 */
describe(`what the agent did, for API callers, on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let fake: FakeOpenAi;
  let t: TestApp;
  let client: OpenAI;
  let sumAgent: number;
  let sumModel: string;
  let fakeAgent: number;
  let openAiAgent: number;
  let notesAgent: number;
  let auth: Record<string, string>;

  const call = (method: string, url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method: method as 'GET', url, headers, payload });

  beforeAll(async () => {
    issuer = await startTestIssuer();
    fake = await startFakeOpenAi({ tokens: 3, word: 'fake' });
    t = await createTestApp({
      ...issuer.env,
      CHAT_TURNS_PER_MINUTE: '1000',
      LLM_MODELS: JSON.stringify([
        { id: 'fake', provider: 'openai-compatible', model: 'fake-model', base_url: fake.url },
        {
          id: 'fake-openai',
          provider: 'openai',
          model: 'gpt-fake',
          base_url: fake.url,
          api_key_env: 'FAKE_KEY',
        },
      ]),
      FAKE_KEY: 'sk-fake',
      LLM_DEFAULT_MODEL: 'offline',
    });
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    ({ auth } = await signInAs(t, issuer, { sub: 'alice', email: 'alice@example.com' }));
    const services = (await call('GET', `${API}/services/`, auth)).json<{ id: number; name: string }[]>();
    const action = async (service: string, name: string) => {
      const id = services.find((s) => s.name === service)!.id;
      await call('POST', `${API}/services/${id}/register_noauth_service`, auth);
      return t.db.kysely
        .selectFrom('actions')
        .select('id')
        .where('service_id', '=', id)
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
    };
    const add = await action('Calculator', 'add');
    const createNote = await action('Notes', 'create_note');
    const create = async (body: object) =>
      (await call('POST', `${API}/agents/`, auth, body)).json<{ id: number }>().id;
    sumAgent = await create({ name: 'Sum Helper', description: 'Adds', tool_ids: [add.id] });
    sumModel = `sum-helper-${sumAgent}`;
    fakeAgent = await create({ name: 'Über Fake!', description: 'On a provider', model_id: 'fake' });
    openAiAgent = await create({ name: 'On OpenAI', description: 'OpenAI', model_id: 'fake-openai' });
    notesAgent = await create({ name: 'Note Taker', description: 'Notes', tool_ids: [createNote.id] });
    const key = await call('POST', `${API}/api-keys`, auth, { name: 'k', scopes: ['chat', 'agents:read'] });
    client = new OpenAI({
      apiKey: key.json<{ key: string }>().key,
      baseURL: `${base}/backend/openai/v1`,
      maxRetries: 0,
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await issuer?.close();
  });

  it('lists models by slug, owned by no person, and takes the slug or the numeric id', async () => {
    const models = (await client.models.list()).data;
    expect(models.map((m) => m.id)).toEqual([
      sumModel,
      `uber-fake-${fakeAgent}`,
      `on-openai-${openAiAgent}`,
      `note-taker-${notesAgent}`,
    ]);
    expect(models.every((m) => m.owned_by === 'cadre')).toBe(true);
    for (const model of [sumModel, String(sumAgent), `renamed-since-${sumAgent}`]) {
      const completion = await client.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'add 2 and 3' }],
      });
      expect(completion.model).toBe(sumModel);
      expect(completion.choices[0]!.message.content).toContain('5');
    }
    await expect(
      client.chat.completions.create({ model: 'sum-helper', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 404, param: 'model' });
  });

  it('reports the tool steps on a completion and, as they happen, on stream chunks', async () => {
    const completion = await client.chat.completions.create({
      model: sumModel,
      messages: [{ role: 'user', content: 'add 17 and 25' }],
    });
    const { cadre } = completion as unknown as { cadre: { thread_id: string; tool_steps: Step[] } };
    expect(cadre.thread_id).toBe(completion.id.replace(/^chatcmpl-/, ''));
    expect(cadre.tool_steps).toEqual([
      {
        id: expect.any(String),
        name: 'add',
        title: 'Add',
        arguments: { a: 17, b: 25 },
        status: 'done',
        result: { result: 42 },
        result_truncated: false,
      },
    ]);

    const stream = await client.chat.completions.create({
      model: sumModel,
      messages: [{ role: 'user', content: 'add 17 and 25' }],
      stream: true,
    });
    const seen: { step?: Step; text?: string }[] = [];
    for await (const chunk of stream) {
      const step = (chunk as unknown as { cadre?: { tool_step: Step } }).cadre?.tool_step;
      if (step) seen.push({ step });
      const text = chunk.choices[0]?.delta.content;
      if (text) seen.push({ text });
    }
    const steps = seen.flatMap((s) => (s.step ? [s.step.status] : []));
    expect(steps).toEqual(['running', 'done']);
    // The step is reported before the answer that uses its result.
    expect(seen.findIndex((s) => s.step?.status === 'done')).toBeLessThan(seen.findIndex((s) => s.text));
    expect(seen.find((s) => s.step?.status === 'done')!.step!.result).toEqual({ result: 42 });
  });

  it('answers the Responses API with the tool call and its output as items, streaming and not', async () => {
    const response = await client.responses.create({ model: sumModel, input: 'add 17 and 25' });
    expect(response.status).toBe('completed');
    expect(response.output.map((item) => item.type)).toEqual([
      'function_call',
      'function_call_output',
      'message',
    ]);
    const [fnCall, fnOutput] = response.output as [
      OpenAI.Responses.ResponseFunctionToolCall,
      { output: string; call_id: string },
    ];
    expect(fnCall).toMatchObject({ name: 'add', status: 'completed' });
    expect(JSON.parse(fnCall.arguments)).toEqual({ a: 17, b: 25 });
    expect(fnOutput).toMatchObject({ call_id: fnCall.call_id, output: '{"result":42}' });
    expect(response.output_text).toContain('42');
    expect(response.usage!.total_tokens).toBeGreaterThan(0);

    const events: string[] = [];
    const raw = await client.responses.create({
      model: sumModel,
      instructions: 'Be brief.',
      input: [{ role: 'user', content: 'add 17 and 25' }],
      stream: true,
    });
    for await (const event of raw) events.push(event.type);
    expect(events[0]).toBe('response.created');
    expect(events.at(-1)).toBe('response.completed');
    expect(events).toContain('response.output_text.delta');
    expect(events.filter((e) => e === 'response.output_item.added')).toHaveLength(3);

    // The client's own stream helper checks the events' order and builds the same response.
    const helper = client.responses.stream({ model: sumModel, input: 'add 17 and 25' });
    const final = await helper.finalResponse();
    expect(final.output.map((item) => item.type)).toEqual([
      'function_call',
      'function_call_output',
      'message',
    ]);
    expect(final.output_text).toContain('42');
  });

  it('answers a write waiting for approval as an incomplete call and a message with the link', async () => {
    const response = await client.responses.create({
      model: String(notesAgent),
      input: 'note down: call the bank',
    });
    expect(response.status).toBe('completed');
    expect(response.output.map((item) => [item.type, 'status' in item ? item.status : undefined])).toEqual([
      ['function_call', 'incomplete'],
      ['message', 'completed'],
    ]);
    const waiting = response.output[0] as unknown as { cadre: { tool_step: Step } };
    expect(waiting.cadre.tool_step).toMatchObject({ name: 'create_note', status: 'awaiting_approval' });
    expect(response.output_text).toMatch(/^This needs your approval before it runs \(create_note\)/);
    expect(response.output_text).toContain(`/agents/${notesAgent}/chat/${response.id.replace(/^resp_/, '')}`);

    // Refused by the owner's setting: an error answer, or when streaming a failed response.
    const patched = await call('PATCH', `${API}/agents/${notesAgent}`, auth, { api_writes: 'refuse' });
    expect(patched.statusCode, patched.body).toBe(200);
    await expect(
      client.responses.create({ model: String(notesAgent), input: 'note down: call the bank' }),
    ).rejects.toMatchObject({ status: 403, code: 'write_refused' });
    const events = await client.responses.create({
      model: String(notesAgent),
      input: 'note down: call the bank',
      stream: true,
    });
    let last: OpenAI.Responses.ResponseStreamEvent | undefined;
    for await (const event of events) last = event;
    expect(last).toMatchObject({
      type: 'response.failed',
      response: { status: 'failed', error: { code: 'write_refused' } },
    });
    const steps = (last as OpenAI.Responses.ResponseFailedEvent).response.output;
    expect(steps[0]).toMatchObject({ type: 'function_call', status: 'completed' });
    expect(steps[1]).toMatchObject({
      type: 'function_call_output',
      output: expect.stringMatching(/^refused: /),
    });
  });

  it('honours max_tokens and stop on the offline model, saying finish_reason length or stop', async () => {
    const ask = (extra: object) =>
      client.chat.completions.create({
        model: sumModel,
        messages: [{ role: 'user', content: 'add 17 and 25' }],
        ...extra,
      });
    const full = (await ask({})).choices[0]!;
    const cut = (await ask({ max_tokens: 2 })).choices[0]!;
    expect(cut.finish_reason).toBe('length');
    expect(cut.message.content!.split(/\s+/).filter(Boolean)).toHaveLength(2);
    expect(full.message.content!.startsWith(cut.message.content!.trim())).toBe(true);
    const stopped = (await ask({ stop: ['42'] })).choices[0]!;
    expect(stopped.finish_reason).toBe('stop');
    expect(stopped.message.content).not.toContain('42');
    expect(full.message.content).toContain(stopped.message.content!.trim());

    const response = await client.responses.create({
      model: sumModel,
      input: 'add 17 and 25',
      max_output_tokens: 2,
    });
    expect(response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    });
  });

  it('refuses response_format and logprobs by name where the model cannot honour them, and runs nothing', async () => {
    const threads = async () =>
      (
        await t.db.kysely
          .selectFrom('threads')
          .select(t.db.kysely.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const before = await threads();
    const refused = [
      [{ response_format: { type: 'json_object' } }, 'response_format'],
      [
        { response_format: { type: 'json_schema', json_schema: { name: 'x', schema: {} } } },
        'response_format.json_schema',
      ],
      [{ logprobs: true }, 'logprobs'],
      [{ top_logprobs: 2 }, 'top_logprobs'],
    ] as const;
    for (const [extra, param] of refused) {
      await expect(
        client.chat.completions.create({
          model: sumModel,
          messages: [{ role: 'user', content: 'add 1 and 2' }],
          ...(extra as object),
        }),
      ).rejects.toMatchObject({ status: 400, param, code: 'bad_request' });
    }
    await expect(
      client.responses.create({
        model: sumModel,
        input: 'add 1 and 2',
        text: { format: { type: 'json_object' } },
      }),
    ).rejects.toMatchObject({ status: 400, param: 'text.format' });
    await expect(
      client.responses.create({ model: sumModel, input: 'hi', previous_response_id: 'resp_x' }),
    ).rejects.toMatchObject({ status: 400, param: 'previous_response_id' });
    expect(await threads()).toBe(before);
  });

  it('passes max_tokens, stop and a JSON schema on to a provider’s model', async () => {
    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    await client.chat.completions.create({
      model: String(fakeAgent),
      messages: [{ role: 'user', content: 'hello' }],
      max_tokens: 7,
      stop: 'END',
      response_format: { type: 'json_schema', json_schema: { name: 'number', schema } },
    });
    expect(fake.requests.at(-1)!.body).toMatchObject({
      max_tokens: 7,
      stop: ['END'],
      response_format: { type: 'json_schema', json_schema: { name: 'number', schema } },
    });
    await client.responses.create({
      model: String(fakeAgent),
      input: 'hello',
      text: { format: { type: 'json_object' } },
    });
    expect(fake.requests.at(-1)!.body).toMatchObject({ response_format: { type: 'json_object' } });
  });

  it('answers browsers only from the origins listed on the API key (CORS), and the list can change', async () => {
    const page = 'https://app.example';
    const created = await call('POST', `${API}/api-keys`, auth, {
      name: 'browser',
      scopes: ['chat'],
      allowed_origins: [`${page}/`],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, key, allowed_origins } = created.json<{
      id: number;
      key: string;
      allowed_origins: string[];
    }>();
    expect(allowed_origins).toEqual([page]);
    const bearer: Record<string, string> = { authorization: `Bearer ${key}` };
    const preflight = (origin: string, path = '/backend/openai/v1/chat/completions') =>
      t.app.inject({
        method: 'OPTIONS',
        url: path,
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, x-stainless-os',
        },
      });
    const listed = await preflight(page);
    expect(listed.statusCode).toBe(204);
    expect(listed.headers).toMatchObject({
      'access-control-allow-origin': page,
      'access-control-allow-headers': 'authorization, content-type, x-stainless-os',
    });
    expect(listed.headers['access-control-allow-credentials']).toBeUndefined();
    expect((await preflight(page, '/backend/mcp/1')).headers['access-control-allow-origin']).toBe(page);
    expect((await preflight('https://evil.example')).headers['access-control-allow-origin']).toBeUndefined();

    const models = (origin?: string, headers = bearer) =>
      t.app.inject({
        method: 'GET',
        url: '/backend/openai/v1/models',
        headers: { ...headers, ...(origin && { origin }) },
      });
    const fromPage = await models(page);
    expect(fromPage.statusCode).toBe(200);
    expect(fromPage.headers['access-control-allow-origin']).toBe(page);
    expect(fromPage.headers['access-control-expose-headers']).toContain('x-cadre-thread-id');
    // Another origin, or a key (or sign-in token) that lists none, is refused; code sends no Origin.
    // The MCP server, whose SDK writes its own answer, carries them too.
    const mcp = await t.app.inject({
      method: 'POST',
      url: `/backend/mcp/${sumAgent}`,
      headers: { ...bearer, origin: page, accept: 'application/json, text/event-stream' },
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
    });
    expect(mcp.statusCode, mcp.body).toBe(200);
    expect(mcp.headers['access-control-allow-origin']).toBe(page);
    const refused = await models('https://evil.example');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'forbidden', type: 'permission_error' } });
    expect((await models(page, auth)).statusCode).toBe(403);
    const fromCode = await models();
    expect(fromCode.statusCode).toBe(200);
    expect(fromCode.headers['access-control-allow-origin']).toBeUndefined();

    // The owner changes the list: it holds at once.
    const bad = await call('PATCH', `${API}/api-keys/${id}`, auth, {
      allowed_origins: ['https://ok.example', '*'],
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['body', 'allowed_origins', 1]);
    const moved = await call('PATCH', `${API}/api-keys/${id}`, auth, {
      allowed_origins: ['https://other.example'],
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().allowed_origins).toEqual(['https://other.example']);
    expect((await models(page)).statusCode).toBe(403);
    expect((await models('https://other.example')).statusCode).toBe(200);
    expect((await preflight(page)).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('relays log probabilities from an OpenAI model, streaming and not', async () => {
    const completion = await client.chat.completions.create({
      model: String(openAiAgent),
      messages: [{ role: 'user', content: 'hello' }],
      logprobs: true,
      top_logprobs: 2,
    });
    expect(fake.requests.at(-1)!.body).toMatchObject({ logprobs: true, top_logprobs: 2 });
    const { content, logprobs } = { ...completion.choices[0]!.message, ...completion.choices[0]! };
    expect(logprobs!.content!.map((t) => t.token).join('')).toBe(content);
    expect(logprobs!.content![0]).toMatchObject({
      logprob: -0.5,
      top_logprobs: [{ token: 'alt0' }, { token: 'alt1' }],
    });

    const stream = await client.chat.completions.create({
      model: String(openAiAgent),
      messages: [{ role: 'user', content: 'hello' }],
      logprobs: true,
      stream: true,
    });
    const withLogprobs = [];
    for await (const chunk of stream) if (chunk.choices[0]?.logprobs) withLogprobs.push(chunk.choices[0]);
    expect(withLogprobs).toHaveLength(1);
    expect(withLogprobs[0]!.finish_reason).toBe('stop');
    expect(withLogprobs[0]!.logprobs!.content).toHaveLength(3);
    // Without asking, none.
    const plain = await client.chat.completions.create({
      model: String(openAiAgent),
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(plain.choices[0]!.logprobs).toBeNull();
  });
});
