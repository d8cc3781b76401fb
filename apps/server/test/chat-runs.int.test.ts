import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLifecycle } from '../src/http/lifecycle.ts';
import { runRegistryFor } from '../src/modules/chat/index.ts';
import { RUN_LEASE_MS, STOP_WAIT_MS } from '../src/modules/chat/run-registry.ts';
import { FIRST_SAVE_MS, SAVE_EVERY_MS } from '../src/modules/chat/runtime/stream-to-parts.ts';
import { startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.ts';
import { readUiChunks } from './support/sse.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

/**
 * Chat runs held in the database, tried as two instances on one database would meet them: a Stop,
 * a second turn or a thread delete arriving at the instance that does not run the turn, a run lost
 * with its instance, and a shutdown in the middle of an answer. The model is a real HTTP server
 * speaking the OpenAI wire format, so aborts travel as they do in production.
 */
const kind = testDatabaseKind();

interface Node {
  t: TestApp;
  base: string;
  lifecycle: ReturnType<typeof createLifecycle>;
}

describe(`chat runs across instances on ${kind}`, () => {
  let issuer: TestIssuer;
  let model: FakeOpenAi;
  let a: Node;
  let b: Node;
  let agentId: number;
  let cookie: string;
  /** A personal API key of the agent's owner, for the OpenAI-compatible API and the MCP server. */
  let apiKey: string;

  const start = async (env: Record<string, string>, sameAs?: TestApp): Promise<Node> => {
    const lifecycle = createLifecycle();
    const t = sameAs
      ? await createTestApp(env, { lifecycle }, { sameDatabaseAs: sameAs })
      : await createTestApp(env, { lifecycle });
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    return { t, base: address, lifecycle };
  };

  beforeAll(async () => {
    issuer = await startTestIssuer();
    model = await startFakeOpenAi();
    const env = {
      ...issuer.env,
      PUBLIC_URL: 'http://cadre.test',
      LLM_PROVIDER: 'openai-compatible',
      LLM_MODEL: 'fake-model',
      LLM_BASE_URL: model.url,
      CHAT_TURNS_PER_MINUTE: '1000',
      SHUTDOWN_TIMEOUT_MS: '300',
    };
    a = await start(env);
    // SQLite serves one instance; there the "other instance" is the same one, and the same code runs.
    b = kind === 'postgres' ? await start({}, a.t) : a;
    const { auth } = await signInAs(a.t, issuer, { sub: 'alice', email: 'alice@example.com' });
    const created = await a.t.app.inject({
      method: 'POST',
      url: '/backend/api/v1/agents/',
      headers: auth,
      payload: { name: 'Talker', description: 'Talks', tool_ids: [] },
    });
    agentId = created.json().id;
    apiKey = (
      await a.t.app.inject({
        method: 'POST',
        url: '/backend/api/v1/api-keys',
        headers: auth,
        payload: { name: 'runs', scopes: ['chat'] },
      })
    ).json().key;
    const session = await a.t.app.inject({
      method: 'POST',
      url: '/chainlit/auth/header',
      headers: { ...auth, 'x-agent-id': String(agentId) },
    });
    cookie = `cadre_chat_session=${session.cookies.find((c) => c.name === 'cadre_chat_session')!.value}`;
  }, 60_000);

  afterAll(async () => {
    if (b !== a) await b?.t.close();
    await a?.t.close();
    await model?.close();
    await issuer?.close();
  });

  const headers = (json = false, session = cookie): Record<string, string> => ({
    cookie: session,
    origin: 'http://cadre.test',
    'x-requested-with': 'cadre-chat',
    ...(json ? { 'content-type': 'application/json' } : {}),
  });
  const post = (node: Node, path: string, body?: unknown, session = cookie) =>
    fetch(`${node.base}/chainlit${path}`, {
      method: 'POST',
      headers: headers(body !== undefined, session),
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** Starts a turn on `node` (in `session`'s chat) and reads its stream in the background. */
  async function turn(node: Node, text: string, threadId?: string, session = cookie) {
    const res = await post(node, '/chat', { text, threadId }, session);
    expect(res.status).toBe(200);
    const chunks: Record<string, unknown>[] = [];
    let streamedThread = '';
    const done = readUiChunks(res, (chunk) => {
      chunks.push(chunk);
      const meta = chunk.messageMetadata as { threadId?: string } | undefined;
      if (meta?.threadId) streamedThread = meta.threadId;
    });
    await expect.poll(() => streamedThread).not.toBe('');
    return { chunks, done, threadId: () => streamedThread };
  }

  const assistantOf = async (threadId: string) => {
    const rows = await a.t.db.kysely
      .selectFrom('messages')
      .select(['status', 'parts'])
      .where('thread_id', '=', threadId)
      .where('role', '=', 'assistant')
      .orderBy('created_at', 'desc')
      .execute();
    const latest = rows[0]!;
    return { status: latest.status, text: JSON.stringify(latest.parts) };
  };

  it('stops a run from the other instance within 500 ms, and refuses a second turn there with 409', async () => {
    const running = await turn(a, 'slow 200 20');
    const threadId = running.threadId();
    // A second turn in the same thread, sent to the other instance.
    const second = await post(b, '/chat', { threadId, text: 'another question' });
    expect(second.status).toBe(409);
    expect(((await second.json()) as { code: string }).code).toBe('run_in_progress');
    await expect.poll(() => running.chunks.filter((c) => c.type === 'text-delta').length).toBeGreaterThan(5);

    const sent = Date.now();
    const stop = await post(b, `/threads/${threadId}/stop`);
    expect(await stop.json()).toMatchObject({ stopped: true, outcome: 'stopped' });
    await running.done;
    expect(Date.now() - sent).toBeLessThan(500);
    const request = model.requests.at(-1)!;
    await expect.poll(() => request.aborted).toBe(true);
    const stored = await assistantOf(threadId);
    expect(stored.status).toBe('interrupted');
    expect(stored.text).toContain('tok5 ');
    // The thread is free again, on either instance.
    const next = await turn(b, 'short answer', threadId);
    await next.done;
    expect((await assistantOf(threadId)).status).toBe('complete');
  });

  it('stops a run within 500 ms when the signal was missed, from the flag alone', async () => {
    const running = await turn(a, 'slow 200 20');
    const threadId = running.threadId();
    await expect.poll(() => running.chunks.filter((c) => c.type === 'text-delta').length).toBeGreaterThan(2);
    // Another instance flagged the run, and its NOTIFY never arrived (the LISTEN connection was
    // reconnecting): only the row says so.
    const sent = Date.now();
    await a.t.db.kysely
      .updateTable('chat_runs')
      .set({ stop_requested: 1 })
      .where('thread_id', '=', threadId)
      .where('status', '=', 'running')
      .execute();
    await running.done;
    expect(Date.now() - sent).toBeLessThan(500);
    const request = model.requests.at(-1)!;
    await expect.poll(() => request.aborted).toBe(true);
    expect((await assistantOf(threadId)).status).toBe('interrupted');
  });

  it('saves the first words within FIRST_SAVE_MS of being sent, then what followed every SAVE_EVERY_MS', async () => {
    // Slack for a loaded machine; the old cadence (a save every 2 s or 50 tokens) misses both bounds.
    const slack = 700;
    const running = await turn(a, 'slow 200 20');
    const threadId = running.threadId();
    const received = () => running.chunks.filter((c) => c.type === 'text-delta').length;
    await expect.poll(received, { interval: 5 }).toBeGreaterThan(0);
    await expect
      .poll(async () => (await assistantOf(threadId)).text, { timeout: FIRST_SAVE_MS + slack, interval: 20 })
      .toContain('tok1 ');
    await expect.poll(received).toBeGreaterThan(30);
    const seen = received();
    await expect
      .poll(async () => (await assistantOf(threadId)).text, { timeout: SAVE_EVERY_MS + slack, interval: 20 })
      .toContain(`tok${seen} `);
    expect((await assistantOf(threadId)).status).toBe('streaming');
    await post(a, `/threads/${threadId}/stop`);
    await running.done;
  });

  it('saves a stream that stalls, on the clock, without waiting for its next token', async () => {
    // One token, then a pause longer than the save cadence before the next.
    const running = await turn(a, 'slow 3 3000');
    const threadId = running.threadId();
    await expect.poll(async () => (await assistantOf(threadId)).text, { timeout: 2_000 }).toContain('tok1 ');
    expect(running.chunks.filter((c) => c.type === 'text-delta')).toHaveLength(1);
    await post(a, `/threads/${threadId}/stop`);
    await running.done;
  });

  it('ends a run lost with its instance as interrupted, keeping what it streamed', async () => {
    const running = await turn(a, 'slow 100 20');
    const threadId = running.threadId();
    // What streamed before the crash was saved on the clock.
    await expect.poll(async () => (await assistantOf(threadId)).text, { timeout: 2_000 }).toContain('tok3 ');
    const stillRunning = () =>
      a.t.db.kysely.selectFrom('chat_runs').select('id').where('status', '=', 'running').execute();
    expect(await stillRunning()).toHaveLength(1);
    // The instance "dies": its run row stops beating (as a killed process's would).
    await a.t.db.kysely
      .updateTable('chat_runs')
      .set({ instance_id: 'a-dead-instance', heartbeat_at: new Date(Date.now() - 60_000).toISOString() })
      .where('thread_id', '=', threadId)
      .where('status', '=', 'running')
      .execute();
    // Any instance's sweep ends it: this one, or the lease check every instance runs each second,
    // which may get there in the moment between the two statements.
    const swept = await runRegistryFor({
      db: b.t.db,
      lifecycle: b.lifecycle,
      log: b.t.app.log,
      shutdownTimeoutMs: 300,
    }).sweep();
    expect(swept).toBeLessThanOrEqual(1);
    expect(await stillRunning()).toHaveLength(0);
    const stored = await assistantOf(threadId);
    expect(stored.status).toBe('interrupted');
    expect(stored.text).toContain('tok3 ');
    await post(a, `/threads/${threadId}/stop`);
    await running.done;
  });

  /**
   * A run claimed as another instance would hold it, through a registry of its own on b's
   * database, in a new thread with a finished answer. The caller closes `registry`.
   */
  async function runOfAnotherInstance(messageId: string) {
    const done = await turn(a, 'short answer');
    await done.done;
    const threadId = done.threadId();
    const registry = runRegistryFor({
      db: b.t.db,
      lifecycle: createLifecycle(),
      log: b.t.app.log,
      shutdownTimeoutMs: 300,
    });
    try {
      const thread = await a.t.db.kysely
        .selectFrom('threads')
        .select('user_id')
        .where('id', '=', threadId)
        .executeTakeFirstOrThrow();
      const claimId = (await registry.claim({
        runId: crypto.randomUUID(),
        userId: thread.user_id,
        threadId,
        messageId,
      }))!;
      return { threadId, registry, claimId };
    } catch (error) {
      await registry.close();
      throw error;
    }
  }

  /**
   * A run held by an instance that then died: its registry closed without ending it, so the lease
   * is never renewed. `age` is how old its lease is.
   */
  async function deadInstanceRun(age: number) {
    const { threadId, registry: ghost, claimId } = await runOfAnotherInstance('a-lost-answer');
    await ghost.close();
    await a.t.db.kysely
      .updateTable('chat_runs')
      .set({ heartbeat_at: new Date(Date.now() - age).toISOString() })
      .where('id', '=', claimId)
      .execute();
    return threadId;
  }

  it('Stop on a run whose instance died frees the thread at once, says so, and the next message is taken', async () => {
    const threadId = await deadInstanceRun(RUN_LEASE_MS + 1_000);
    const stop = await post(b, `/threads/${threadId}/stop`);
    // Either Stop released the run itself, or an instance's lease check (every second) had already
    // done so and the thread was free when Stop came: both free it at once and say which.
    // (The lease still valid, where only Stop can free it in time, is the next test.)
    const answer = (await stop.json()) as { outcome: string };
    if (answer.outcome === 'released') {
      expect(answer).toEqual({
        stopped: true,
        outcome: 'released',
        detail: expect.stringMatching(/server writing this answer stopped responding/),
      });
    } else {
      expect(answer).toMatchObject({ stopped: false, outcome: 'idle' });
    }
    const next = await turn(b, 'short answer', threadId);
    await next.done;
    expect((await assistantOf(threadId)).status).toBe('complete');
  });

  it('Stop on a run whose instance died a moment ago (lease still valid) frees the thread within STOP_WAIT_MS', async () => {
    const threadId = await deadInstanceRun(0);
    const sent = Date.now();
    const stop = await post(a, `/threads/${threadId}/stop`);
    expect(await stop.json()).toMatchObject({ stopped: true, outcome: 'released' });
    expect(Date.now() - sent).toBeGreaterThanOrEqual(STOP_WAIT_MS);
    expect((await post(a, '/chat', { threadId, text: 'short answer' })).status).toBe(200);
  });

  it('Stop waits for a live instance that is slow to end its run (it renewed the lease) and says stopped', async () => {
    const { threadId, registry: slow, claimId } = await runOfAnotherInstance('a-slow-answer');
    try {
      const controller = new AbortController();
      slow.attach(claimId, controller);
      // Its last save takes twice as long as Stop waits before it takes an instance for gone.
      controller.signal.addEventListener('abort', () => {
        setTimeout(() => void slow.end(claimId, 'interrupted'), STOP_WAIT_MS * 2);
      });
      const stop = await post(a, `/threads/${threadId}/stop`);
      expect(await stop.json()).toMatchObject({ stopped: true, outcome: 'stopped' });
      expect(controller.signal.aborted).toBe(true);
      expect((await post(a, '/chat', { threadId, text: 'short answer' })).status).toBe(200);
    } finally {
      await slow.close();
    }
  });

  it("without Stop, the next message is taken as soon as the dead instance's lease ran out", async () => {
    const threadId = await deadInstanceRun(RUN_LEASE_MS + 100);
    const next = await turn(b, 'short answer', threadId);
    await next.done;
    expect((await assistantOf(threadId)).status).toBe('complete');
  });

  /** Reads a rejoined answer (GET /chat/:threadId/stream) to its end. */
  async function rejoin(node: Node, threadId: string) {
    const res = await fetch(`${node.base}/chainlit/chat/${threadId}/stream`, { headers: headers() });
    if (res.status === 204) return { status: 204, chunks: [] as Record<string, unknown>[] };
    expect(res.status).toBe(200);
    const chunks: Record<string, unknown>[] = [];
    await readUiChunks(res, (chunk) => chunks.push(chunk));
    return { status: res.status, chunks };
  }
  const textOf = (chunks: Record<string, unknown>[]) =>
    chunks
      .filter((c) => c.type === 'text-delta')
      .map((c) => c.delta)
      .join('');

  it('a second tab on the other instance rejoins a live answer from its first word and sees it to the end', async () => {
    const running = await turn(a, 'slow 40 25');
    const threadId = running.threadId();
    await expect.poll(() => running.chunks.filter((c) => c.type === 'text-delta').length).toBeGreaterThan(5);
    const joined = await rejoin(b, threadId);
    await running.done;
    expect(joined.chunks[0]).toMatchObject({ type: 'start', messageId: running.chunks[0]!.messageId });
    expect(textOf(joined.chunks)).toBe(textOf(running.chunks));
    expect(textOf(joined.chunks)).toContain('tok40 ');
    expect(joined.chunks.at(-1)).toMatchObject({ type: 'finish', messageMetadata: { status: 'complete' } });
    // Once the answer ended there is nothing to rejoin.
    expect((await rejoin(b, threadId)).status).toBe(204);
  });

  it('a reload rejoins the answer its closed connection left running, which then goes on to the end', async () => {
    const controller = new AbortController();
    const res = await fetch(`${a.base}/chainlit/chat`, {
      method: 'POST',
      headers: headers(true),
      body: JSON.stringify({ text: 'slow 30 30' }),
      signal: controller.signal,
    });
    const threadId = res.headers.get('x-thread-id')!;
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    const joined = await rejoin(b, threadId);
    expect(textOf(joined.chunks)).toBe(Array.from({ length: 30 }, (_, i) => `tok${i + 1} `).join(''));
    expect((await assistantOf(threadId)).status).toBe('complete');
  });

  it('deleting a thread on the other instance stops its run there', async () => {
    const running = await turn(a, 'slow 200 20');
    const threadId = running.threadId();
    await expect.poll(() => running.chunks.filter((c) => c.type === 'text-delta').length).toBeGreaterThan(2);
    const res = await fetch(`${b.base}/chainlit/threads/${threadId}`, {
      method: 'DELETE',
      headers: headers(),
    });
    expect(res.status).toBe(204);
    await running.done;
    const request = model.requests.at(-1)!;
    await expect.poll(() => request.aborted).toBe(true);
  });

  it('stops a trigger run like any other, from the chat on the other instance', async () => {
    const before = model.requests.length;
    const queued = await fetch(`${b.base}/backend/api/v1/agents/${agentId}/triggers/stoppable`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ say: 'slow 300 20' }),
    });
    expect(queued.status).toBe(202);
    const eventId = ((await queued.json()) as { id: number }).id;
    // Whichever instance's worker claims the event runs it.
    const runningRun = () =>
      a.t.db.kysely
        .selectFrom('chat_runs')
        .innerJoin('threads', 'threads.id', 'chat_runs.thread_id')
        .select(['chat_runs.thread_id', 'chat_runs.instance_id'])
        .where('threads.origin', '=', 'trigger')
        .where('chat_runs.status', '=', 'running')
        .executeTakeFirst();
    await expect.poll(runningRun, { timeout: 10_000 }).toBeDefined();
    const run = (await runningRun())!;
    await expect.poll(() => model.requests.length).toBe(before + 1);
    const request = model.requests.at(-1)!;
    expect(request.ended).toBe(false);
    const other = run.instance_id === a.lifecycle.instanceId ? b : a;
    const stop = await post(other, `/threads/${run.thread_id}/stop`);
    expect(await stop.json()).toMatchObject({ stopped: true, outcome: 'stopped' });
    await expect.poll(() => request.aborted).toBe(true);
    await expect
      .poll(
        async () =>
          (
            await a.t.db.kysely
              .selectFrom('trigger_events')
              .select('status')
              .where('id', '=', eventId)
              .executeTakeFirstOrThrow()
          ).status,
      )
      .toBe('done');
    expect((await assistantOf(run.thread_id)).status).toBe('interrupted');
  });

  it('deleting the user on the other instance stops their running run there', async () => {
    const { auth } = await signInAs(a.t, issuer, { sub: 'carol', email: 'carol@example.com' });
    const agent = await a.t.app.inject({
      method: 'POST',
      url: '/backend/api/v1/agents/',
      headers: auth,
      payload: { name: 'Leaver', description: 'Talks', tool_ids: [] },
    });
    const session = await a.t.app.inject({
      method: 'POST',
      url: '/chainlit/auth/header',
      headers: { ...auth, 'x-agent-id': String(agent.json().id) },
    });
    const carol = `cadre_chat_session=${session.cookies.find((c) => c.name === 'cadre_chat_session')!.value}`;
    const running = await turn(a, 'slow 300 20', undefined, carol);
    await expect.poll(() => running.chunks.filter((c) => c.type === 'text-delta').length).toBeGreaterThan(2);
    const request = model.requests.at(-1)!;
    const deleted = await fetch(`${b.base}/backend/api/v1/users/me`, { method: 'DELETE', headers: auth });
    expect(deleted.status).toBe(204);
    await running.done;
    await expect.poll(() => request.aborted).toBe(true);
    expect(
      await a.t.db.kysely.selectFrom('threads').select('id').where('id', '=', running.threadId()).execute(),
    ).toEqual([]);
  });

  it('on shutdown, ends an answer still going after SHUTDOWN_TIMEOUT_MS as interrupted, with an error chunk and its text saved', async () => {
    const node = await start({}, a.t);
    try {
      const running = await turn(node, 'slow 300 20');
      const threadId = running.threadId();
      await expect
        .poll(() => running.chunks.filter((c) => c.type === 'text-delta').length)
        .toBeGreaterThan(3);
      await node.lifecycle.beginDraining();
      await running.done;
      const error = running.chunks.find((c) => c.type === 'error') as { errorText: string } | undefined;
      expect(error?.errorText).toContain('The server is restarting');
      const stored = await assistantOf(threadId);
      expect(stored.status).toBe('interrupted');
      expect(stored.text).toContain('tok3 ');
      // Draining: not ready, and every response closes its connection.
      const ready = await fetch(`${node.base}/backend/api/v1/public/health/ready`);
      expect(ready.status).toBe(503);
    } finally {
      await node.t.close();
    }
  });

  it('while shutting down, refuses a new turn with 503 and Retry-After and stores nothing of it', async () => {
    const node = await start({}, a.t);
    try {
      const threadsBefore = await a.t.db.kysely.selectFrom('threads').select('id').execute();
      await node.lifecycle.beginDraining();
      const refused = await post(node, '/chat', { text: 'slow 10 20' });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toEqual({
        detail: expect.stringMatching(/restarting/),
        code: 'unavailable',
      });
      const api = await fetch(`${node.base}/backend/openai/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: String(agentId), messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(api.status).toBe(503);
      expect(await a.t.db.kysely.selectFrom('threads').select('id').execute()).toHaveLength(
        threadsBefore.length,
      );
      // The other instance goes on taking turns.
      if (b !== a) expect((await post(b, '/chat', { text: 'short answer' })).status).toBe(200);
    } finally {
      await node.t.close();
    }
  });

  it('bounds a run that starts on an instance already shutting down: it ends at SHUTDOWN_TIMEOUT_MS, or at once past it', async () => {
    const node = await start({}, a.t);
    try {
      const thread = await a.t.db.kysely
        .selectFrom('threads')
        .select(['id', 'user_id'])
        .executeTakeFirstOrThrow();
      const runs = runRegistryFor({
        db: node.t.db,
        lifecycle: node.lifecycle,
        log: node.t.app.log,
        shutdownTimeoutMs: 300,
      });
      // Idle when the signal came: a turn admitted just before draining began still gets a deadline.
      await node.lifecycle.beginDraining();
      const claim = (messageId: string) =>
        runs.claim({ runId: crypto.randomUUID(), userId: thread.user_id, threadId: thread.id, messageId });
      const late = await claim('late-run');
      const controller = new AbortController();
      runs.attach(late!, controller);
      expect(controller.signal.aborted).toBe(false);
      await expect.poll(() => controller.signal.aborted, { timeout: 2_000 }).toBe(true);
      expect(controller.signal.reason).toMatchObject({ why: 'shutdown' });
      await runs.end(late!, 'interrupted');
      // Past the deadline a run has no time left at all.
      const later = await claim('later-run');
      const after = new AbortController();
      runs.attach(later!, after);
      expect(after.signal.aborted).toBe(true);
      await runs.end(later!, 'interrupted');
    } finally {
      await node.t.close();
    }
  });

  it('an OpenAI-compatible stream stopped from the chat on the other instance ends with an error, never "stop"', async () => {
    const openai = new OpenAI({ apiKey, baseURL: `${a.base}/backend/openai/v1`, maxRetries: 0 });
    const stream = await openai.chat.completions.create({
      model: String(agentId),
      messages: [{ role: 'user', content: 'slow 300 20' }],
      stream: true,
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    // The outcome is captured at once: the stream may fail before the test gets to look at it.
    const read = (async () => {
      for await (const chunk of stream) chunks.push(chunk);
    })().then(
      () => new Error('the stream ended without an error'),
      (err: unknown) => err,
    );
    await expect.poll(() => chunks.length).toBeGreaterThan(4);
    const threadId = chunks[0]!.id.replace(/^chatcmpl-/, '');
    expect(await (await post(b, `/threads/${threadId}/stop`)).json()).toMatchObject({
      stopped: true,
      outcome: 'stopped',
    });
    expect(String(await read)).toMatch(/stopped before it was complete/);
    expect(chunks.some((c) => c.choices[0]?.finish_reason === 'stop')).toBe(false);
    expect((await assistantOf(threadId)).status).toBe('interrupted');
  });

  it('an MCP client that goes away mid-call stops the model call and ends the run', async () => {
    const client = new Client({ name: 'runs-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${b.base}/backend/mcp/${agentId}`), {
        requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
      }),
    );
    const before = model.requests.length;
    const call = client.callTool({ name: 'ask_talker', arguments: { message: 'slow 300 20' } });
    await expect.poll(() => model.requests.length).toBe(before + 1);
    // Closing the client ends its HTTP request (stateless: the request is the only tie to the run).
    await client.close();
    await expect(call).rejects.toThrow();
    const request = model.requests.at(-1)!;
    await expect.poll(() => request.aborted).toBe(true);
    await expect
      .poll(
        async () =>
          (await a.t.db.kysely.selectFrom('chat_runs').select('id').where('status', '=', 'running').execute())
            .length,
      )
      .toBe(0);
  });
});
