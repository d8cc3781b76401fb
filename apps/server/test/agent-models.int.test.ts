import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelListSchema, type ChatMessage } from '@cadre/contract';
import { uiChunks } from './support/chat-fixtures.ts';
import { startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

/**
 * A model per agent (issue 20): the operator offers two OpenAI-compatible models, each a real HTTP
 * server answering with its own words, and the agent's choice decides which one answers, with the
 * agent's temperature in the request. A model the operator stops offering falls back to the
 * default, and the answer says so.
 */
const kind = testDatabaseKind();
const AGENTS = '/backend/api/v1/agents/';
const ALPHA_KEY = 'sk-alpha-very-secret';

describe(`a model per agent on ${kind}`, () => {
  let issuer: TestIssuer;
  let alpha: FakeOpenAi;
  let beta: FakeOpenAi;
  let t: TestApp;
  let auth: Record<string, string>;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    alpha = await startFakeOpenAi({ tokens: 2, word: 'alpha' });
    beta = await startFakeOpenAi({ tokens: 2, word: 'beta' });
    t = await createTestApp({
      ...issuer.env,
      LLM_MODELS: JSON.stringify([
        {
          id: 'alpha',
          label: 'Alpha',
          provider: 'openai-compatible',
          model: 'alpha-model',
          base_url: alpha.url,
          api_key_env: 'ALPHA_KEY_FOR_TEST',
          context_window: 8192,
          input_price_per_million: 0.5,
          output_price_per_million: 1.5,
        },
        { id: 'beta', label: 'Beta', provider: 'openai-compatible', model: 'beta-model', base_url: beta.url },
      ]),
      ALPHA_KEY_FOR_TEST: ALPHA_KEY,
      CHAT_TURNS_PER_MINUTE: '1000',
    });
    auth = (await signInAs(t, issuer, { sub: 'alice', email: 'alice@example.com' })).auth;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await alpha?.close();
    await beta?.close();
    await issuer?.close();
  });

  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
  const createAgent = async (fields: object = {}) => {
    const res = await inject('POST', AGENTS, { name: 'Talker', description: 'Talks', ...fields });
    expect(res.statusCode).toBe(201);
    return res.json<{ id: number; model_id: string | null; temperature: number | null }>();
  };
  const patch = (id: number, body: object) => inject('PATCH', `/backend/api/v1/agents/${id}`, body);

  /** A chat turn with the agent, as the frame sends it: the streamed chunks and the thread id. */
  async function chat(agentId: number, text: string) {
    const session = await t.app.inject({
      method: 'POST',
      url: '/chainlit/auth/header',
      headers: { ...auth, 'x-agent-id': String(agentId) },
    });
    const cookie = `cadre_chat_session=${session.cookies.find((c) => c.name === 'cadre_chat_session')!.value}`;
    const headers = { cookie, origin: 'http://cadre.test', 'x-requested-with': 'cadre-chat' };
    const res = await t.app.inject({ method: 'POST', url: '/chainlit/chat', headers, payload: { text } });
    expect(res.statusCode).toBe(200);
    const chunks = uiChunks(res.body);
    const text_ = chunks.map((c) => (c.type === 'text-delta' ? c.delta : '')).join('');
    const start = chunks.find((c) => c.type === 'start') as {
      messageMetadata: { threadId: string; model: string; modelName?: string };
    };
    const stored = await t.app.inject({
      method: 'GET',
      url: `/chainlit/threads/${start.messageMetadata.threadId}/messages`,
      headers,
    });
    const answer = stored.json<{ messages: ChatMessage[] }>().messages.at(-1)!;
    const info = await t.app.inject({ method: 'GET', url: '/chainlit/session', headers });
    const { model, modelName } = start.messageMetadata;
    const threadId = start.messageMetadata.threadId;
    return { chunks, text: text_, model, modelName, answer, session: info.json(), headers, threadId };
  }

  it('lists the offered models with the default marked, never a key or a base URL', async () => {
    const res = await inject('GET', '/backend/api/v1/models');
    expect(res.statusCode).toBe(200);
    expect(modelListSchema.parse(res.json())).toEqual([
      {
        id: 'alpha',
        label: 'Alpha',
        provider: 'openai-compatible',
        context_window: 8192,
        input_price_per_million: 0.5,
        output_price_per_million: 1.5,
        default: true,
      },
      {
        id: 'beta',
        label: 'Beta',
        provider: 'openai-compatible',
        context_window: null,
        input_price_per_million: null,
        output_price_per_million: null,
        default: false,
      },
      {
        id: 'offline',
        label: 'Offline model',
        provider: 'offline',
        context_window: null,
        input_price_per_million: 0,
        output_price_per_million: 0,
        default: false,
      },
    ]);
    for (const secret of [ALPHA_KEY, 'ALPHA_KEY_FOR_TEST', alpha.url, beta.url, '127.0.0.1'])
      expect(res.body).not.toContain(secret);
    expect(t.logs.join('\n')).not.toContain(ALPHA_KEY);

    // Any API key may read it, whatever its scope; nobody signed out may.
    const key = (
      await inject('POST', '/backend/api/v1/api-keys', { name: 'models', scopes: ['copilot:mint'] })
    ).json<{ key: string }>().key;
    const withKey = await t.app.inject({
      method: 'GET',
      url: '/backend/api/v1/models',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(withKey.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/backend/api/v1/models' })).statusCode).toBe(401);
  });

  it("model select changes which fake model answers, with the agent's temperature", async () => {
    const agent = await createAgent();
    expect(agent).toMatchObject({ model_id: null, temperature: null, model_available: true });

    const byDefault = await chat(agent.id, 'hello');
    expect(byDefault.text).toBe('alpha1 alpha2 ');
    expect(byDefault.model).toBe('alpha');
    expect(byDefault.answer.metadata.model).toBe('alpha');
    // Each answer names its model by the model list's label, live and when the thread is read back.
    expect(byDefault.modelName).toBe('Alpha');
    expect(byDefault.answer.metadata.modelName).toBe('Alpha');
    expect(alpha.requests.at(-1)!.body).not.toHaveProperty('temperature');
    expect(alpha.requests.at(-1)!.body.model).toBe('alpha-model');

    const switched = await patch(agent.id, { model_id: 'beta', temperature: 0.7 });
    expect(switched.statusCode).toBe(200);
    expect(switched.json()).toMatchObject({ model_id: 'beta', temperature: 0.7, model_available: true });
    const alphaCalls = alpha.requests.length;
    const onBeta = await chat(agent.id, 'hello again');
    expect(onBeta.text).toBe('beta1 beta2 ');
    expect(onBeta.model).toBe('beta');
    expect(onBeta.answer.metadata.model).toBe('beta');
    expect(onBeta.answer.metadata.modelName).toBe('Beta');
    expect(onBeta.session.model).toMatchObject({ id: 'beta', modelId: 'beta-model', offline: false });
    expect(beta.requests.at(-1)!.body).toMatchObject({ model: 'beta-model', temperature: 0.7 });
    expect(alpha.requests).toHaveLength(alphaCalls);

    // The offline model is always on offer: no provider is called.
    await patch(agent.id, { model_id: 'offline', temperature: null });
    const betaCalls = beta.requests.length;
    const offline = await chat(agent.id, 'hello offline');
    expect(offline.model).toBe('offline');
    expect(offline.modelName).toBe('Offline model');
    expect(offline.session.model).toMatchObject({ id: 'offline', offline: true });
    expect([alpha.requests.length, beta.requests.length]).toEqual([alphaCalls, betaCalls]);

    // Back to the default.
    expect((await patch(agent.id, { model_id: null })).json()).toMatchObject({ model_id: null });
    expect((await chat(agent.id, 'and again')).text).toBe('alpha1 alpha2 ');
  });

  it("runs the OpenAI-compatible API on the agent's model too, with the agent's guidelines", async () => {
    const guidelines = 'Answer in French, and never promise a delivery date.';
    const agent = await createAgent({ model_id: 'beta', temperature: 1.5, guidelines });
    const key = (await inject('POST', '/backend/api/v1/api-keys', { name: 'api', scopes: ['chat'] })).json<{
      key: string;
    }>().key;
    const res = await t.app.inject({
      method: 'POST',
      url: '/backend/openai/v1/chat/completions',
      headers: { authorization: `Bearer ${key}` },
      payload: { model: String(agent.id), messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().choices[0].message.content).toBe('beta1 beta2 ');
    const sent = beta.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
    expect(sent).toMatchObject({ model: 'beta-model', temperature: 1.5 });
    // The caller's messages follow the agent's own system prompt, which carries its guidelines.
    const system = sent.messages.filter((m) => m.role === 'system').map((m) => JSON.stringify(m.content));
    expect(system.join('\n')).toContain(guidelines);
    expect(sent.messages.at(-1)).toMatchObject({ role: 'user' });
  });

  it('refuses an unknown model and a temperature outside 0-2, naming the field, and changes nothing', async () => {
    const unknown = await inject('POST', AGENTS, { name: 'A', description: 'd', model_id: 'gpt-9' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().detail).toEqual([
      {
        loc: ['body', 'model_id'],
        msg: "Unknown model 'gpt-9': GET /api/v1/models lists the models on offer",
        type: 'unknown_model',
      },
    ]);
    const agent = await createAgent({ model_id: 'beta', temperature: 1.2 });
    expect(agent).toMatchObject({ model_id: 'beta', temperature: 1.2 });
    for (const body of [
      { model_id: 'gpt-9' },
      { temperature: 2.5 },
      { temperature: -0.1 },
      { temperature: 'hot' },
    ]) {
      const res = await patch(agent.id, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0].loc).toEqual(['body', Object.keys(body)[0]]);
    }
    const got = await inject('GET', `/backend/api/v1/agents/${agent.id}/agent`);
    expect(got.json()).toMatchObject({ model_id: 'beta', temperature: 1.2 });
  });

  it('keeps the model and temperature in versions, restore, export and import', async () => {
    const agent = await createAgent({ model_id: 'beta', temperature: 0.3 });
    await patch(agent.id, { model_id: 'alpha', temperature: null });
    const versions = (await inject('GET', `/backend/api/v1/agents/${agent.id}/versions`)).json<
      { number: number; snapshot: { model_id: string | null; temperature: number | null } }[]
    >();
    expect(versions.map((v) => [v.number, v.snapshot.model_id, v.snapshot.temperature])).toEqual([
      [2, 'alpha', null],
      [1, 'beta', 0.3],
    ]);
    const restored = await inject('POST', `/backend/api/v1/agents/${agent.id}/versions/1/restore`);
    expect(restored.json()).toMatchObject({ model_id: 'beta', temperature: 0.3, model_not_restored: null });

    const exported = (await inject('GET', `/backend/api/v1/agents/${agent.id}/export`)).json();
    expect(exported.agent).toMatchObject({ model_id: 'beta', temperature: 0.3 });
    const imported = await inject('POST', '/backend/api/v1/agents/import', exported);
    expect(imported.statusCode).toBe(201);
    expect(imported.json()).toMatchObject({
      agent: { model_id: 'beta', temperature: 0.3 },
      model_not_offered: null,
    });

    // Another server's model: the copy uses the default, and the result says which model was dropped.
    const foreign = { ...exported, agent: { ...exported.agent, model_id: 'their-model' } };
    const elsewhere = await inject('POST', '/backend/api/v1/agents/import', foreign);
    expect(elsewhere.statusCode).toBe(201);
    expect(elsewhere.json()).toMatchObject({
      agent: { model_id: null, temperature: 0.3, model_available: true },
      model_not_offered: 'their-model',
    });
  });

  it('a restore whose model is no longer offered uses the default and names the model left out', async () => {
    const agent = await createAgent({ model_id: 'beta' });
    // The operator removed `retired` from LLM_MODELS after the agent chose it; a save records it.
    await t.db.kysely.updateTable('agents').set({ model_id: 'retired' }).where('id', '=', agent.id).execute();
    await patch(agent.id, { name: 'Renamed' });
    await patch(agent.id, { model_id: 'alpha' });
    const versions = (await inject('GET', `/backend/api/v1/agents/${agent.id}/versions`)).json<
      { number: number; snapshot: { model_id: string | null } }[]
    >();
    const withRetired = versions.find((v) => v.snapshot.model_id === 'retired')!;
    const restored = await inject(
      'POST',
      `/backend/api/v1/agents/${agent.id}/versions/${withRetired.number}/restore`,
    );
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ name: 'Renamed', model_id: null, model_not_restored: 'retired' });
  });

  it('an agent whose model is no longer offered answers with the default, says so once, and is flagged', async () => {
    const agent = await createAgent({ model_id: 'beta', temperature: 0.5 });
    // The operator removed `retired` from LLM_MODELS after the agent chose it.
    await t.db.kysely.updateTable('agents').set({ model_id: 'retired' }).where('id', '=', agent.id).execute();

    const got = (await inject('GET', `/backend/api/v1/agents/${agent.id}/agent`)).json();
    expect(got).toMatchObject({ model_id: 'retired', model_available: false });
    const listed = (await inject('GET', AGENTS)).json<{ id: number; model_available: boolean }[]>();
    expect(listed.find((a) => a.id === agent.id)!.model_available).toBe(false);

    const notice = "This agent's model 'retired' is no longer offered; answered with 'alpha'.";
    const turn = await chat(agent.id, 'are you there');
    expect(turn.text).toBe('alpha1 alpha2 ');
    expect(turn.model).toBe('alpha');
    expect(turn.chunks.filter((c) => c.type === 'data-notice')).toEqual([
      { type: 'data-notice', data: { message: notice } },
    ]);
    expect(turn.answer.metadata.model).toBe('alpha');
    // An answer written by a model the operator has since removed keeps its id and gets no name.
    await t.db.kysely
      .updateTable('messages')
      .set({ model: 'retired' })
      .where('id', '=', turn.answer.id)
      .execute();
    const reread = await t.app.inject({
      method: 'GET',
      url: `/chainlit/threads/${turn.threadId}/messages`,
      headers: turn.headers,
    });
    const old = reread.json<{ messages: ChatMessage[] }>().messages.find((m) => m.id === turn.answer.id)!;
    expect(old.metadata).toMatchObject({ model: 'retired' });
    expect(old.metadata).not.toHaveProperty('modelName');
    expect(turn.answer.parts.filter((p) => p.type === 'data-notice')).toEqual([
      { type: 'data-notice', data: { message: notice } },
    ]);
    expect(alpha.requests.at(-1)!.body).toMatchObject({ temperature: 0.5 });

    // Saving other fields keeps the stale id (the owner chooses a new model); choosing one clears the flag.
    expect((await patch(agent.id, { name: 'Renamed' })).json()).toMatchObject({ model_available: false });
    expect((await patch(agent.id, { model_id: 'beta' })).json()).toMatchObject({ model_available: true });
  });
});
