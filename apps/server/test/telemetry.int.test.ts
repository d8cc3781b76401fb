import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLifecycle } from '../src/http/lifecycle.ts';
import { runRegistryFor } from '../src/modules/chat/index.ts';
import { startTracing, type StartedTracing } from '../src/telemetry/index.ts';
import { chatTurnAs, connectedCalculator } from './support/chat-fixtures.ts';
import { addFile } from './support/knowledge-api.ts';
import { startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

/**
 * Traces and metrics (issue 20, item 6): with an OpenTelemetry SDK started (here with an in-memory
 * exporter instead of OTLP), a chat turn is one trace: the HTTP request, its database statements,
 * the agent run, each model call in GenAI's conventions and each tool call, with the user's and
 * agent's ids and never the prompt unless the operator opted in. `/backend/metrics` answers a
 * scraper holding the token with the request, run, model, tool and error counters and histograms.
 */
const kind = testDatabaseKind();
const API = '/backend/api/v1';
const SCRAPE_TOKEN = 'scrape-token-for-the-test-0123456789';
/** Words only the person's prompt holds: no span may carry them unless content capture is on. */
const SECRET_WORDS = 'zebra-plan-4242';

describe(`traces and metrics on ${kind}`, () => {
  const exporter = new InMemorySpanExporter();
  let tracing: StartedTracing;
  let issuer: TestIssuer;
  let model: FakeOpenAi;
  let t: TestApp;
  let alice: { auth: Record<string, string>; id: number };
  let agentId: number;

  const chat = async (app: TestApp, auth: Record<string, string>, agent: number, text: string) =>
    (await chatTurnAs(app, auth, agent, text)).res;

  /** The app's lifecycle, which names its run registry. */
  const lifecycle = createLifecycle();
  const appWith = (env: Record<string, string>, extra: Parameters<typeof createTestApp>[1] = {}) =>
    createTestApp(
      {
        ...issuer.env,
        CHAT_TURNS_PER_MINUTE: '1000',
        LLM_MODELS: JSON.stringify([
          { id: 'paid', provider: 'openai-compatible', model: 'paid-model', base_url: model.url },
        ]),
        ...env,
      },
      extra,
    );

  beforeAll(async () => {
    // Before the app and its database: what main.ts does when OTEL_EXPORTER_OTLP_ENDPOINT is set.
    tracing = await startTracing({
      serviceName: 'cadre-test',
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    issuer = await startTestIssuer();
    model = await startFakeOpenAi({ tokens: 20 });
    t = await appWith({ METRICS_SCRAPE_TOKEN: SCRAPE_TOKEN }, { lifecycle });
    alice = await signInAs(t, issuer, { sub: 'alice', email: 'alice@example.com' });
    const evaluate = await connectedCalculator(t, alice.auth);
    agentId = (
      await t.app.inject({
        method: 'POST',
        url: `${API}/agents/`,
        headers: alice.auth,
        payload: { name: 'Calc', description: 'Adds', tool_ids: [evaluate] },
      })
    ).json<{ id: number }>().id;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await Promise.all([model?.close(), issuer?.close()]);
    await tracing?.shutdown();
  });

  const attributesOf = (span: ReadableSpan) => span.attributes;
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  it('makes a chat turn one trace: request, database, agent run, model calls and tool call, with ids and no prompt', async () => {
    exporter.reset();
    expect((await chat(t, alice.auth, agentId, `remember ${SECRET_WORDS}`)).statusCode).toBe(200);
    const turn = await chat(t, alice.auth, agentId, 'tool evaluate {"expression":"6*7"}');
    expect(turn.statusCode).toBe(200);
    const spans = exporter.getFinishedSpans();
    const user = String(alice.id);
    const agent = String(agentId);

    const requests = spans.filter((s) => s.name === 'POST /chainlit/chat');
    expect(requests).toHaveLength(2);
    const request = requests[1]!;
    expect(attributesOf(request)).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/chainlit/chat',
      'url.path': '/chainlit/chat',
      'http.response.status_code': 200,
    });
    const trace = request.spanContext().traceId;
    const inTrace = spans.filter((s) => s.spanContext().traceId === trace);

    const run = inTrace.find((s) => s.name === 'invoke_agent')!;
    expect(parentOf(run)).toBe(request.spanContext().spanId);
    expect(attributesOf(run)).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.id': agent,
      'cadre.user.id': user,
      'cadre.run.source': 'chat',
      'cadre.run.status': 'complete',
    });

    const calls = inTrace.filter((s) => s.name === 'chat paid-model');
    expect(calls.map((s) => attributesOf(s)['gen_ai.response.finish_reasons'])).toEqual([
      ['tool-calls'],
      ['stop'],
    ]);
    for (const call of calls) {
      expect(parentOf(call)).toBe(run.spanContext().spanId);
      expect(attributesOf(call)).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai-compatible',
        'gen_ai.request.model': 'paid-model',
        'gen_ai.response.model': 'paid-model',
        'gen_ai.usage.input_tokens': 10,
        'gen_ai.agent.id': agent,
        'cadre.user.id': user,
        'cadre.model.id': 'paid',
      });
    }
    expect(calls.map((s) => attributesOf(s)['gen_ai.usage.output_tokens'])).toEqual([5, 20]);

    const tool = inTrace.find((s) => s.name === 'execute_tool')!;
    expect(attributesOf(tool)).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'evaluate',
      'cadre.tool.provider': 'builtin',
      'gen_ai.agent.id': agent,
      'cadre.user.id': user,
    });

    const statements = inTrace.filter((s) => s.attributes['db.system.name'] !== undefined);
    expect(new Set(statements.map((s) => s.attributes['db.system.name']))).toEqual(
      new Set([kind === 'sqlite' ? 'sqlite' : 'postgresql']),
    );
    expect(statements.map((s) => s.name)).toEqual(expect.arrayContaining(['SELECT', 'INSERT', 'UPDATE']));
    // The run's statements carry the user and agent it works for.
    expect(statements.some((s) => s.attributes['gen_ai.agent.id'] === agent)).toBe(true);

    // No span of either turn carries what the person wrote or the tool's arguments.
    const everything = JSON.stringify(spans.map((s) => s.attributes));
    expect(everything).not.toContain(SECRET_WORDS);
    expect(everything).not.toContain('6*7');
    expect(everything).not.toContain('tok1');
  });

  it('marks a failed model call, its run and its request, and counts them in the metrics', async () => {
    exporter.reset();
    expect((await chat(t, alice.auth, agentId, 'fail 400 no')).statusCode).toBe(200);
    const spans = exporter.getFinishedSpans();
    const call = spans.find((s) => s.name === 'chat paid-model')!;
    expect(call.status.code).toBe(2);
    expect(call.attributes['error.type']).toBe('provider_error');
    const run = spans.find((s) => s.name === 'invoke_agent')!;
    expect(run.attributes).toMatchObject({ 'cadre.run.status': 'error', 'error.type': 'provider_error' });
  });

  it('serves Prometheus metrics to a scraper holding the token only', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${SCRAPE_TOKEN}`]) {
      const refused = await t.app.inject({
        method: 'GET',
        url: '/backend/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(refused.statusCode, authorization).toBe(401);
      expect(refused.body).not.toContain('cadre_');
    }
    // A signed-in user's token is not a scrape token.
    expect(
      (await t.app.inject({ method: 'GET', url: '/backend/metrics', headers: alice.auth })).statusCode,
    ).toBe(401);
    const res = await t.app.inject({
      method: 'GET',
      url: '/backend/metrics',
      headers: { authorization: `Bearer ${SCRAPE_TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const value = (series: string) =>
      Number(
        new RegExp(`^${series.replace(/[{}()[\].+*?^$|\\]/g, '\\$&')} (\\S+)$`, 'm').exec(res.body)?.[1],
      );
    expect(value('cadre_http_requests_total{method="POST",route="/chainlit/chat",status_code="200"}')).toBe(
      3,
    );
    expect(
      value(
        'cadre_http_request_duration_seconds_count{method="POST",route="/chainlit/chat",status_code="200"}',
      ),
    ).toBe(3);
    expect(value('cadre_chat_runs_total{source="chat",status="complete"}')).toBe(2);
    expect(value('cadre_chat_runs_total{source="chat",status="error"}')).toBe(1);
    expect(value('cadre_chat_run_duration_seconds_count{source="chat"}')).toBe(3);
    expect(value('cadre_model_calls_total{model="paid",outcome="ok"}')).toBe(3);
    expect(value('cadre_model_calls_total{model="paid",outcome="error"}')).toBe(1);
    expect(value('cadre_model_tokens_total{model="paid",direction="input"}')).toBe(30);
    expect(value('cadre_model_tokens_total{model="paid",direction="output"}')).toBe(45);
    expect(value('cadre_tool_calls_total{provider="builtin",outcome="ok"}')).toBe(1);
    expect(value('cadre_tool_call_duration_seconds_count{provider="builtin"}')).toBe(1);
    expect(value('cadre_errors_total{kind="model"}')).toBe(1);
    expect(value('cadre_errors_total{kind="run"}')).toBe(1);
    expect(res.body).toMatch(/^cadre_process_cpu_seconds_total /m);
    // This instance's capacity: its pool (PostgreSQL only), the runs running here, released runs.
    if (kind === 'postgres') {
      expect(value('cadre_db_pool_size')).toBeGreaterThan(0);
      expect(value('cadre_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
      expect(value('cadre_db_pool_waiting')).toBe(0);
    } else expect(res.body).not.toMatch(/^cadre_db_pool_size /m);
    expect(value('cadre_chat_runs_running')).toBe(0);
    expect(value('cadre_run_lease_expiries_total')).toBe(0);
    // Labels name routes and models, never who: no user, agent or thread id.
    expect(res.body).not.toMatch(/[{,](user|agent|thread)[a-z_]*="/);
  });

  it('counts a run of a lost instance that it releases as a lease expiry', async () => {
    expect((await chat(t, alice.auth, agentId, 'hello')).statusCode).toBe(200);
    const run = await t.db.kysely
      .selectFrom('chat_runs')
      .select('id')
      .orderBy('started_at', 'desc')
      .executeTakeFirstOrThrow();
    // Its instance "dies": the run is left running and stops being renewed, as a killed one's is.
    await t.db.kysely
      .updateTable('chat_runs')
      .set({
        status: 'running',
        instance_id: 'a-dead-instance',
        heartbeat_at: new Date(Date.now() - 60_000).toISOString(),
      })
      .where('id', '=', run.id)
      .execute();
    await runRegistryFor({ db: t.db, lifecycle, log: t.app.log, shutdownTimeoutMs: 300 }).sweep();
    const res = await t.app.inject({
      method: 'GET',
      url: '/backend/metrics',
      headers: { authorization: `Bearer ${SCRAPE_TOKEN}` },
    });
    expect(res.body).toMatch(/^cadre_run_lease_expiries_total 1$/m);
  });

  it("traces and counts the runtime's own tools like an action: a knowledge search, with the request's ids", async () => {
    const reader = (
      await t.app.inject({
        method: 'POST',
        url: `${API}/agents/`,
        headers: alice.auth,
        payload: { name: 'Reader', description: 'Reads its files', tool_ids: [] },
      })
    ).json<{ id: number }>().id;
    exporter.reset();
    await addFile(t, alice.auth as { authorization: string }, reader, 'hours.md', '# Hours\n\nOpen 9 to 5.');
    const upload = exporter
      .getFinishedSpans()
      .find((s) => /\/files$/.test(String(s.attributes['http.route'])))!;
    // A request's span names who made it and for which agent.
    expect(upload.attributes).toMatchObject({ 'cadre.user.id': alice.id, 'gen_ai.agent.id': String(reader) });

    expect((await chat(t, alice.auth, reader, 'tool search_knowledge {"query":"hours"}')).statusCode).toBe(
      200,
    );
    const tool = exporter.getFinishedSpans().find((s) => s.name === 'execute_tool')!;
    expect(tool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'search_knowledge',
      'cadre.tool.provider': 'knowledge',
      'gen_ai.agent.id': String(reader),
      'cadre.user.id': String(alice.id),
    });
    const metrics = await t.app.inject({
      method: 'GET',
      url: '/backend/metrics',
      headers: { authorization: `Bearer ${SCRAPE_TOKEN}` },
    });
    expect(metrics.body).toMatch(/^cadre_tool_calls_total\{provider="knowledge",outcome="ok"\} 1$/m);
  });

  it('has no metrics route without a scrape token, and puts the prompt on model spans only when the operator opts in', async () => {
    const other = await appWith({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' });
    try {
      expect(
        (
          await other.app.inject({
            method: 'GET',
            url: '/backend/metrics',
            headers: { authorization: `Bearer ${SCRAPE_TOKEN}` },
          })
        ).statusCode,
      ).toBe(404);
      const bob = await signInAs(other, issuer, { sub: 'bob', email: 'bob@example.com' });
      const agent = (
        await other.app.inject({
          method: 'POST',
          url: `${API}/agents/`,
          headers: bob.auth,
          payload: { name: 'Open book', description: 'Talks' },
        })
      ).json<{ id: number }>().id;
      exporter.reset();
      expect((await chat(other, bob.auth, agent, `remember ${SECRET_WORDS}`)).statusCode).toBe(200);
      const call = exporter.getFinishedSpans().find((s) => s.name === 'chat paid-model')!;
      expect(String(call.attributes['gen_ai.input.messages'])).toContain(SECRET_WORDS);
      expect(String(call.attributes['gen_ai.output.messages'])).toContain('tok20');
    } finally {
      await other.close();
    }
  });
});
