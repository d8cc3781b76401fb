import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentsService } from '../src/modules/agents/service.ts';
import { createAuditLog } from '../src/modules/audit/service.ts';
import { createToolsExecutor, type ToolExecutor } from '../src/modules/chat/index.ts';
import { MAYBE_SENT } from '../src/modules/chat/tools-executor.ts';
import type { ToolsService } from '../src/modules/tools/index.ts';
import type { ToolResult } from '../src/modules/tools/provider.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { createUser } from './support/users.ts';

/**
 * An unattended write under its idempotency key (a trigger event's), through the real executor on
 * the real database, with a provider that records what it was asked to do: the key is claimed
 * before the provider is called, so a retry after a crash anywhere in between does not send twice.
 */
describe(`writes under an idempotency key on ${testDatabaseKind()}`, () => {
  let t: TestApp;
  let userId: number;
  let executor: ToolExecutor;
  const sent: { args: unknown; idempotencyKey?: string }[] = [];
  let answer: (args: unknown) => Promise<ToolResult> = async () => ({ ok: true, data: { id: sent.length } });

  beforeAll(async () => {
    t = await createTestApp();
    userId = await createUser(t.db, 'owner');
    const provider = {
      executeAction: async (_userId: number, _actionId: number, args: unknown, options = {}) => {
        sent.push({ args, ...options });
        return answer(args);
      },
    } as unknown as ToolsService;
    executor = createToolsExecutor(provider, createAgentsService(t.db, createAuditLog(t.db)), t.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  const run = (
    key: string,
    args: Record<string, unknown> = { to: 'a@b.c' },
    signal = new AbortController().signal,
  ) => executor.execute(userId, 1, args, signal, { idempotencyKey: key });
  const rowOf = (key: string) =>
    t.db.kysely
      .selectFrom('tool_executions')
      .select(['status', 'result'])
      .where('idempotency_key', '=', key)
      .executeTakeFirst();

  it('sends once: a retry with the same key, whatever its arguments, answers with the first result', async () => {
    sent.length = 0;
    const first = await run('trigger-event:1:7:1');
    expect(first).toEqual({ ok: true, data: { id: 1 } });
    // The model of the retried run words the same write differently: still the same write.
    expect(await run('trigger-event:1:7:1', { to: 'a@b.c', body: 'reworded' })).toEqual(first);
    expect(sent).toEqual([{ args: { to: 'a@b.c' }, idempotencyKey: 'trigger-event:1:7:1' }]);
    expect(await rowOf('trigger-event:1:7:1')).toEqual({ status: 'done', result: JSON.stringify(first) });
  });

  it('does not send again when an earlier attempt was lost between the call and its answer', async () => {
    sent.length = 0;
    // The provider is slow: while it works, the key is already claimed.
    let release: (result: ToolResult) => void = () => {};
    answer = () => new Promise((resolve) => (release = resolve));
    const inFlight = run('trigger-event:2:7:1');
    await expect.poll(() => sent.length).toBe(1);
    expect((await rowOf('trigger-event:2:7:1'))?.status).toBe('pending');
    // The instance dies here: what it leaves is the pending row. The retry does not send.
    expect(await run('trigger-event:2:7:1')).toEqual(MAYBE_SENT);
    expect(sent).toHaveLength(1);
    release({ ok: true, data: { id: 'late' } });
    await inFlight;
    answer = async () => ({ ok: true, data: { id: sent.length } });
  });

  it('records the answer of a call it stopped waiting for, and lets a refused write be tried again', async () => {
    sent.length = 0;
    let release: (result: ToolResult) => void = () => {};
    answer = () => new Promise((resolve) => (release = resolve));
    const stop = new AbortController();
    const waiting = run('trigger-event:3:7:1', undefined, stop.signal);
    await expect.poll(() => sent.length).toBe(1);
    stop.abort();
    expect(await waiting).toMatchObject({ ok: false, code: 'aborted' });
    release({ ok: true, data: { id: 'arrived after the stop' } });
    await expect.poll(async () => (await rowOf('trigger-event:3:7:1'))?.status).toBe('done');
    expect(await run('trigger-event:3:7:1')).toEqual({ ok: true, data: { id: 'arrived after the stop' } });

    // A provider that refused did nothing: the key is released and the retry sends.
    answer = async () => ({ ok: false, code: 'rate_limited', error: 'slow down' });
    expect(await run('trigger-event:4:7:1')).toMatchObject({ ok: false, code: 'rate_limited' });
    expect(await rowOf('trigger-event:4:7:1')).toBeUndefined();
    answer = async () => ({ ok: true, data: { id: 'second try' } });
    expect(await run('trigger-event:4:7:1')).toEqual({ ok: true, data: { id: 'second try' } });
    expect(sent.map((s) => s.idempotencyKey)).toEqual([
      'trigger-event:3:7:1',
      'trigger-event:4:7:1',
      'trigger-event:4:7:1',
    ]);
  });
});
