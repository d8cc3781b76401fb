import type { UIMessageChunk } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostFunctionBridge, TOMBSTONE_MS } from '../src/modules/chat/host-functions.ts';
import { createHostFunctionTool } from '../src/modules/chat/runtime/host-function-tool.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { createAgent, createUser } from './support/users.ts';

const kind = testDatabaseKind();

/** The call id the bridge streamed to the page. */
const callIdOf = (chunks: UIMessageChunk[]) =>
  (chunks.find((c) => c.type === 'data-call-fn') as unknown as { data: { callId: string } }).data.callId;

describe(`copilot host-page calls through the database on ${kind}`, () => {
  let a: TestApp;
  let b: TestApp;
  let alice: { userId: number; agentId: number };
  let bob: { userId: number; agentId: number };
  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({}, {}, { sameDatabaseAs: a });
    const aliceId = await createUser(a.db, 'alice');
    const bobId = await createUser(a.db, 'bob');
    alice = { userId: aliceId, agentId: await createAgent(a.db, aliceId, 'Copilot') };
    bob = { userId: bobId, agentId: await createAgent(a.db, bobId, 'Other') };
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  // SQLite is one instance: both "instances" answer through one database and one process's signals.
  const answering = () => (kind === 'postgres' ? b : a);

  it('delivers an answer posted to another instance to the run that waits for it, within 500 ms', async () => {
    const running = createHostFunctionBridge(a.db);
    const other = createHostFunctionBridge(answering().db);
    const written: UIMessageChunk[] = [];
    const pending = running.call({
      ...alice,
      runId: 'run-1',
      name: 'getCart',
      args: { id: 3 },
      write: (c) => written.push(c),
    });
    await expect.poll(() => written.length).toBe(1);
    const callId = callIdOf(written);
    expect(written[0]).toMatchObject({ type: 'data-call-fn', data: { name: 'getCart', args: { id: 3 } } });

    // Another user or another agent cannot answer it.
    expect(await other.settle(bob, callId, 'forged')).toBe('not_found');
    expect(await other.settle({ userId: alice.userId, agentId: bob.agentId }, callId, 'x')).toBe('not_found');
    const sent = Date.now();
    expect(await other.settle(alice, callId, { items: 2 })).toBe('settled');
    await expect(pending).resolves.toEqual({ ok: true, result: { items: 2 } });
    expect(Date.now() - sent).toBeLessThan(500);
    // Answered once: the row is gone, a second answer finds nothing.
    expect(await other.settle(alice, callId, { items: 99 })).toBe('not_found');
    expect(await a.db.kysely.selectFrom('host_calls').selectAll().execute()).toEqual([]);
  });

  it('answers an expired call with expired at once, and a stopped run settles as an error', async () => {
    const shortLived = createHostFunctionBridge(a.db, { timeoutMs: 300 });
    const written: UIMessageChunk[] = [];
    const late = shortLived.call({
      ...alice,
      runId: 'run-2',
      name: 'slow',
      args: {},
      write: (c) => written.push(c),
    });
    await expect.poll(() => written.length).toBe(1);
    const callId = callIdOf(written);
    // Expired but not yet cleaned up: the page learns it is too late.
    await a.db.kysely
      .updateTable('host_calls')
      .set({ expires_at: new Date(Date.now() - 1).toISOString() })
      .where('id', '=', callId)
      .execute();
    expect(await createHostFunctionBridge(answering().db).settle(alice, callId, 'too late')).toBe('expired');
    await expect(late).resolves.toEqual({
      ok: false,
      error: 'The page did not answer the function call in time.',
    });
    // The run stopped waiting: a late answer is still told it is too late, not that it never existed.
    expect(await createHostFunctionBridge(answering().db).settle(alice, callId, 'later still')).toBe(
      'expired',
    );
    // ...until TOMBSTONE_MS past its expiry, when the next call forgets it.
    await a.db.kysely
      .updateTable('host_calls')
      .set({ expires_at: new Date(Date.now() - TOMBSTONE_MS - 1_000).toISOString() })
      .where('id', '=', callId)
      .execute();
    const next = shortLived.call({ ...alice, runId: 'run-2b', name: 'f', args: {}, write: () => {} });
    await expect
      .poll(async () => createHostFunctionBridge(a.db).settle(alice, callId, 'x'))
      .toBe('not_found');
    await next;

    const controller = new AbortController();
    const stopped = shortLived.call({
      ...alice,
      runId: 'run-3',
      name: 'f',
      args: {},
      write: () => {},
      signal: controller.signal,
    });
    controller.abort();
    await expect(stopped).resolves.toMatchObject({
      ok: false,
      error: 'The run was stopped before the page answered.',
    });
  });

  it('gives the model a tool whose execution waits for the page', async () => {
    const bridge = createHostFunctionBridge(a.db);
    const tool = createHostFunctionTool(bridge, {
      ...alice,
      runId: 'run-4',
      write: (c) => {
        const callId = (c as unknown as { data: { callId: string } }).data.callId;
        void createHostFunctionBridge(answering().db).settle(alice, callId, 'page says hi');
      },
    });
    const result = await tool.execute!(
      { name: 'greet', args: {} },
      { toolCallId: 't1', messages: [], context: {} },
    );
    expect(result).toBe('page says hi');
  });
});
