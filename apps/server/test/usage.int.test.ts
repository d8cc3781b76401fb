import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageReportSchema, type UserExport } from '@cadre/contract';
import {
  chatSessionCookie,
  chatTurnAs,
  connectedCalculator,
  ORIGIN,
  seedAction,
  uiChunks,
} from './support/chat-fixtures.ts';
import { startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

/**
 * Usage and cost (issue 20, item 5): every run stores the tokens its model reported (the fake
 * OpenAI-compatible server reports 10 prompt tokens and one per word it answers), the model, the
 * cost at the model's prices, tool calls and errors; estimates are marked as such; the Usage API
 * sums them per day, agent and model for the caller only; past the monthly budget the chat and the
 * API answer 429 with the reset date.
 */
const kind = testDatabaseKind();
const API = '/backend/api/v1';
const PRICES = { input_price_per_million: 2.5, output_price_per_million: 10 };

/** The fake's usage: 10 prompt tokens a call, one completion token per word. */
const costOf = (input: number, output: number) =>
  (input * PRICES.input_price_per_million + output * PRICES.output_price_per_million) / 1_000_000;

async function startApp(issuer: TestIssuer, paid: FakeOpenAi, extra: Record<string, string>) {
  const quiet = await startFakeOpenAi({ tokens: 8, reportUsage: false });
  const t = await createTestApp({
    ...issuer.env,
    CHAT_TURNS_PER_MINUTE: '1000',
    LLM_MODELS: JSON.stringify([
      { id: 'paid', provider: 'openai-compatible', model: 'paid-model', base_url: paid.url, ...PRICES },
      { id: 'quiet', provider: 'openai-compatible', model: 'quiet-model', base_url: quiet.url },
    ]),
    ...extra,
  });
  await t.app.triggers.stop();
  return { t, quiet };
}

function helpers(t: TestApp, auth: Record<string, string>) {
  const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
  return {
    inject,
    async agent(name: string, fields: object = {}) {
      const res = await inject('POST', `${API}/agents/`, { name, description: 'Helps', ...fields });
      expect(res.statusCode).toBe(201);
      return res.json<{ id: number }>().id;
    },
    chat: (agentId: number, text: string) => chatTurnAs(t, auth, agentId, text),
    async report(query = '') {
      const res = await inject('GET', `${API}/usage${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return usageReportSchema.parse(res.json());
    },
  };
}

const rowsOf = (t: TestApp, userId: number) =>
  t.db.kysely.selectFrom('turn_usage').selectAll().where('user_id', '=', userId).orderBy('id').execute();

describe(`usage and cost on ${kind}`, () => {
  let issuer: TestIssuer;
  let paid: FakeOpenAi;
  let quiet: FakeOpenAi;
  let t: TestApp;
  let alice: { auth: Record<string, string>; id: number };
  let bob: { auth: Record<string, string>; id: number };
  let calculatorAgent: number;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    paid = await startFakeOpenAi({ tokens: 20 });
    ({ t, quiet } = await startApp(issuer, paid, {}));
    alice = await signInAs(t, issuer, { sub: 'alice', email: 'alice@example.com' });
    bob = await signInAs(t, issuer, { sub: 'bob', email: 'bob@example.com' });
    const evaluate = await connectedCalculator(t, alice.auth);
    calculatorAgent = await helpers(t, alice.auth).agent('Calc', { tool_ids: [evaluate], model_id: 'paid' });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await Promise.all([paid?.close(), quiet?.close(), issuer?.close()]);
  });

  it("stores each run's tokens exactly as the model reported them, its cost at the model's prices, and its tool calls", async () => {
    const { chat, inject, report } = helpers(t, alice.auth);
    const plain = await chat(calculatorAgent, 'hello');
    expect(plain.streamed).toContain('tok20');
    // One model call: the tool is called on the first, the answer written on the second.
    const withTool = await chat(calculatorAgent, 'tool evaluate {"expression":"6*7"}');
    expect(withTool.res.statusCode).toBe(200);
    expect(paid.requests.at(-1)!.body.messages).toEqual(
      expect.arrayContaining([expect.objectContaining({ role: 'tool' })]),
    );
    const key = (await inject('POST', `${API}/api-keys`, { name: 'api', scopes: ['chat'] })).json<{
      key: string;
    }>().key;
    const completion = await t.app.inject({
      method: 'POST',
      url: '/backend/openai/v1/chat/completions',
      headers: { authorization: `Bearer ${key}` },
      payload: { model: String(calculatorAgent), messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(completion.statusCode).toBe(200);
    expect(completion.json().usage).toEqual({ prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 });

    const stored = await rowsOf(t, alice.id);
    const run = (source: string, input: number, output: number, toolCalls: number) => ({
      user_id: alice.id,
      agent_id: calculatorAgent,
      source,
      model: 'paid',
      input_tokens: input,
      output_tokens: output,
      estimated: 0,
      cost: costOf(input, output),
      tool_calls: toolCalls,
      status: 'complete',
      continued: 0,
    });
    expect(
      stored.map(({ id: _id, run_id: _run, thread_id: _thread, created_at: _at, ...row }) => row),
    ).toEqual([run('chat', 10, 20, 0), run('chat', 20, 25, 1), run('api', 10, 20, 0)]);
    expect(stored[0]!.thread_id).toBe(String(plain.res.headers['x-thread-id']));

    const today = new Date().toISOString().slice(0, 10);
    const byAll = await report('?group_by=day,agent,model');
    expect(byAll.rows).toEqual([
      {
        day: today,
        agent_id: calculatorAgent,
        agent_name: 'Calc',
        model: 'paid',
        turns: 3,
        input_tokens: 40,
        output_tokens: 65,
        total_tokens: 105,
        estimated: false,
        cost: expect.closeTo(costOf(40, 65), 12),
        tool_calls: 1,
        errors: 0,
      },
    ]);
    const { day: _day, agent_id: _agent, agent_name: _name, model: _model, ...counts } = byAll.rows[0]!;
    expect(byAll.totals).toEqual(counts);
    expect(byAll.budget).toMatchObject({ monthly_tokens: null, used_tokens: 105 });
    expect(byAll.budget.resets_at > new Date().toISOString()).toBe(true);

    const csv = await inject('GET', `${API}/usage/csv?group_by=agent`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="cadre-usage-\d{4}-\d{2}-\d{2}-to-/,
    );
    const [header, line, ...more] = csv.body.trim().split('\n');
    expect(header).toBe(
      'day,agent_id,agent_name,model,turns,input_tokens,output_tokens,total_tokens,estimated,cost,tool_calls,errors',
    );
    expect(more).toEqual([]);
    const cells = line!.split(',');
    expect(cells).toEqual([
      '',
      String(calculatorAgent),
      'Calc',
      '',
      '3',
      '40',
      '65',
      '105',
      'no',
      cells[9],
      '1',
      '0',
    ]);
    expect(Number(cells[9])).toBeCloseTo(costOf(40, 65), 12);
  });

  it('records the runs of MCP tool calls and triggers with where they came from', async () => {
    const { agent, inject } = helpers(t, alice.auth);
    const agentId = await agent('Reached from code', { model_id: 'paid' });
    const key = (await inject('POST', `${API}/api-keys`, { name: 'mcp', scopes: ['chat'] })).json<{
      key: string;
    }>().key;
    const called = await t.app.inject({
      method: 'POST',
      url: `/backend/mcp/${agentId}`,
      headers: { authorization: `Bearer ${key}`, accept: 'application/json, text/event-stream' },
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'ask_reached_from_code', arguments: { message: 'hello' } },
      },
    });
    expect(called.statusCode, called.body).toBe(200);
    expect(called.body).toContain('tok20');
    expect((await inject('POST', `${API}/agents/${agentId}/triggers/nightly`, { n: 1 })).statusCode).toBe(
      202,
    );
    // The worker was stopped so it runs events only when a test asks: once, here.
    t.app.triggers.start();
    try {
      expect(await t.app.triggers.drain()).toBe(1);
    } finally {
      await t.app.triggers.stop();
    }
    const rows = (await rowsOf(t, alice.id)).filter((r) => r.agent_id === agentId);
    expect(rows.map((r) => [r.source, r.input_tokens, r.output_tokens, r.status])).toEqual([
      ['mcp', 10, 20, 'complete'],
      ['trigger', 10, 20, 'complete'],
    ]);
  });

  it('counts a run that continues after an approval as the same turn, with its own tokens', async () => {
    const { agent, report } = helpers(t, alice.auth);
    const memo = await seedAction(t.db, {
      name: 'post_memo',
      description: 'Posts a memo to the team board',
      effect: 'write',
      schema: { type: 'object', properties: {} },
    });
    const agentId = await agent('Memo writer', { tool_ids: [memo], model_id: 'paid' });
    const headers = {
      cookie: await chatSessionCookie(t, alice.auth, agentId),
      origin: ORIGIN,
      'x-requested-with': 'cadre-chat',
    };
    const asked = await t.app.inject({
      method: 'POST',
      url: '/chainlit/chat',
      headers,
      payload: { text: 'tool post_memo {}' },
    });
    const request = uiChunks(asked.body).find((c) => c.type === 'tool-approval-request') as {
      approvalId: string;
    };
    const approved = await t.app.inject({
      method: 'POST',
      url: `/chainlit/approvals/${request.approvalId}/approve`,
      headers,
      payload: {},
    });
    expect(approved.statusCode).toBe(200);
    const rows = (await rowsOf(t, alice.id)).filter((r) => r.agent_id === agentId);
    expect(rows.map((r) => [r.status, r.continued, r.input_tokens, r.output_tokens, r.tool_calls])).toEqual([
      ['awaiting_approval', 0, 10, 5, 1],
      ['complete', 1, 10, 20, 0],
    ]);
    expect(rows[1]!.run_id).toBe(rows[0]!.run_id);
    const mine = (await report('?group_by=agent')).rows.find((r) => r.agent_id === agentId)!;
    expect(mine).toMatchObject({ turns: 1, input_tokens: 20, output_tokens: 25, tool_calls: 1 });
  });

  it('marks estimates: the offline model counts its own tokens, and a provider that reports none is estimated', async () => {
    const { chat, agent, report } = helpers(t, alice.auth);
    const offline = await agent('Offline helper', { model_id: 'offline' });
    const quietAgent = await agent('Quiet helper', { model_id: 'quiet' });
    expect((await chat(offline, 'hello')).res.statusCode).toBe(200);
    const answer = await chat(quietAgent, 'hello');
    expect(answer.streamed).toBe('tok1 tok2 tok3 tok4 tok5 tok6 tok7 tok8 ');

    const rows = await rowsOf(t, alice.id);
    const offlineRow = rows.find((r) => r.agent_id === offline)!;
    expect(offlineRow).toMatchObject({ model: 'offline', estimated: 1, cost: 0 });
    expect(offlineRow.input_tokens).toBeGreaterThan(0);
    const quietRow = rows.find((r) => r.agent_id === quietAgent)!;
    // About four characters a token, from the request sent and the answer streamed; no prices.
    expect(quietRow).toMatchObject({ model: 'quiet', estimated: 1, cost: null, output_tokens: 10 });
    expect(quietRow.input_tokens).toBeGreaterThan(10);

    const byModel = await report('?group_by=model');
    expect(byModel.rows.map((r) => [r.model, r.estimated, r.cost === null])).toEqual([
      ['offline', true, false],
      ['paid', false, false],
      ['quiet', true, true],
    ]);
    expect(byModel.totals.estimated).toBe(true);
  });

  it('counts a run that failed as an error, and a deleted agent keeps its usage without a name', async () => {
    const { chat, agent, inject, report } = helpers(t, alice.auth);
    const failing = await agent('Failing', { model_id: 'paid' });
    await chat(failing, 'fail 400 bad request');
    expect((await rowsOf(t, alice.id)).at(-1)).toMatchObject({
      agent_id: failing,
      status: 'error',
      input_tokens: 0,
      output_tokens: 0,
    });
    expect((await inject('DELETE', `${API}/agents/${failing}`)).statusCode).toBe(204);
    const byAgent = await report('?group_by=agent');
    expect(byAgent.rows.find((r) => r.agent_id === failing)).toMatchObject({
      agent_name: null,
      turns: 1,
      errors: 1,
    });
    expect(byAgent.totals.errors).toBe(1);
  });

  it("answers the caller's own usage only, exports it, and refuses a bad query naming the field", async () => {
    const asBob = helpers(t, bob.auth);
    const bobs = await asBob.report('?group_by=day,agent,model');
    expect(bobs.rows).toEqual([]);
    expect(bobs.totals).toMatchObject({ turns: 0, total_tokens: 0, cost: null });
    expect((await asBob.inject('GET', `${API}/usage/csv`)).body.trim().split('\n')).toHaveLength(1);

    const exported = (
      await helpers(t, alice.auth).inject('GET', `${API}/users/me/export`)
    ).json<UserExport>();
    expect(exported.usage.length).toBe((await rowsOf(t, alice.id)).length);
    expect(exported.usage[0]).toMatchObject({
      source: 'chat',
      model: 'paid',
      estimated: false,
      continued: false,
    });

    for (const [query, field] of [
      ['?from=2025-02-10&to=2025-02-01', 'from'],
      ['?from=2020-01-01&to=2025-01-01', 'from'],
      ['?group_by=week', 'group_by'],
      ['?to=yesterday', 'to'],
      ['?owner=1', 'owner'],
    ] as const) {
      const res = await asBob.inject('GET', `${API}/usage${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().detail[0].loc, query).toEqual(['querystring', field]);
    }
    expect((await t.app.inject({ method: 'GET', url: `${API}/usage` })).statusCode).toBe(401);
  });
});

describe(`a monthly token budget on ${kind}`, () => {
  let issuer: TestIssuer;
  let paid: FakeOpenAi;
  let quiet: FakeOpenAi;
  let t: TestApp;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    paid = await startFakeOpenAi({ tokens: 20 });
    ({ t, quiet } = await startApp(issuer, paid, {
      USER_MONTHLY_TOKEN_BUDGET: '50',
      LLM_DEFAULT_MODEL: 'paid',
    }));
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await Promise.all([paid?.close(), quiet?.close(), issuer?.close()]);
  });

  it('refuses the chat, the OpenAI-compatible API, MCP tool calls and triggers with 429 and the reset date once it is used', async () => {
    const alice = await signInAs(t, issuer, { sub: 'alice', email: 'alice@example.com' });
    const { chat, agent, inject, report } = helpers(t, alice.auth);
    const agentId = await agent('Budgeted');
    // 30 tokens a turn: the second turn starts under the budget of 50 and ends over it.
    expect((await chat(agentId, 'one')).res.statusCode).toBe(200);
    expect((await chat(agentId, 'two')).res.statusCode).toBe(200);
    const calls = paid.requests.length;
    const threads = await t.db.kysely.selectFrom('threads').select('id').execute();

    const next = new Date();
    const resetDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 1))
      .toISOString()
      .slice(0, 10);
    const refused = (await chat(agentId, 'three')).res;
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      detail: `You have used this month's token budget (60 of 50 tokens). It resets on ${resetDay} (UTC).`,
      code: 'budget_exceeded',
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(31 * 86_400);

    const key = (await inject('POST', `${API}/api-keys`, { name: 'api', scopes: ['chat'] })).json<{
      key: string;
    }>().key;
    const bearer = { authorization: `Bearer ${key}` };
    const completion = await t.app.inject({
      method: 'POST',
      url: '/backend/openai/v1/chat/completions',
      headers: bearer,
      payload: { model: String(agentId), messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(completion.statusCode).toBe(429);
    expect(completion.headers['retry-after']).toBeDefined();
    expect(completion.json().error).toMatchObject({ type: 'rate_limit_error', code: 'budget_exceeded' });
    expect(completion.json().error.message).toContain(resetDay);

    const mcp = (message: object) =>
      t.app.inject({
        method: 'POST',
        url: `/backend/mcp/${agentId}`,
        headers: { ...bearer, accept: 'application/json, text/event-stream' },
        payload: { jsonrpc: '2.0', id: 1, ...message },
      });
    const called = await mcp({
      method: 'tools/call',
      params: { name: 'ask_budgeted', arguments: { message: 'hi' } },
    });
    expect(called.statusCode).toBe(429);
    expect(called.json()).toMatchObject({
      detail: expect.stringContaining(resetDay),
      code: 'budget_exceeded',
    });
    expect(called.headers['retry-after']).toBeDefined();
    // Listing the tool runs no model: it still answers.
    expect((await mcp({ method: 'tools/list' })).statusCode).toBe(200);

    const trigger = await inject('POST', `${API}/agents/${agentId}/triggers/daily`, { n: 1 });
    expect(trigger.statusCode).toBe(429);
    expect(trigger.json().code).toBe('budget_exceeded');
    expect(trigger.headers['retry-after']).toBeDefined();
    expect(await t.db.kysely.selectFrom('trigger_events').select('id').execute()).toEqual([]);

    // Nothing ran and nothing was stored for the refused calls.
    expect(paid.requests.length).toBe(calls);
    expect(await t.db.kysely.selectFrom('threads').select('id').execute()).toEqual(threads);
    expect((await report()).budget).toMatchObject({
      monthly_tokens: 50,
      used_tokens: 60,
      resets_at: `${resetDay}T00:00:00.000Z`,
    });

    // The budget is per user: another person still chats.
    const bob = helpers(t, (await signInAs(t, issuer, { sub: 'bob', email: 'bob@example.com' })).auth);
    expect((await bob.chat(await bob.agent('Mine'), 'hello')).res.statusCode).toBe(200);
  });
});
