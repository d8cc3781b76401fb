import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAgentsService } from '../src/modules/agents/index.ts';
import { createAuditLog } from '../src/modules/audit/index.ts';
import { createTriggerWorker, providerTriggerStore, type TriggerRun } from '../src/modules/triggers/index.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

describe(`trigger events on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let auth: Record<string, string>;
  let userId: number;

  beforeAll(async () => {
    issuer = await startTestIssuer();
  });
  afterAll(async () => {
    await issuer.close();
  });
  beforeEach(async () => {
    t = await createTestApp(issuer.env);
    ({ auth, id: userId } = await signInAs(t, issuer, {
      sub: 'alice',
      email: 'alice@example.com',
      name: 'Alice',
    }));
  });
  afterEach(async () => {
    await t?.close();
  });

  async function calculatorAgent() {
    const services = (
      await t.app.inject({ method: 'GET', url: '/backend/api/v1/services/', headers: auth })
    ).json() as { id: number; name: string }[];
    const calculator = services.find((s) => s.name === 'Calculator')!;
    const registered = await t.app.inject({
      method: 'POST',
      url: `/backend/api/v1/services/${calculator.id}/register_noauth_service`,
      headers: auth,
    });
    expect(registered.statusCode).toBe(200);
    const actions = (
      await t.app.inject({
        method: 'GET',
        url: `/backend/api/v1/services/${calculator.id}/actions`,
        headers: auth,
      })
    ).json() as { id: number }[];
    const agent = await t.app.inject({
      method: 'POST',
      url: '/backend/api/v1/agents/',
      headers: auth,
      payload: {
        name: 'Adder',
        description: 'Adds numbers from events',
        guidelines: null,
        tool_ids: actions.map((a) => a.id),
      },
    });
    return { agentId: agent.json().id as number, serviceId: calculator.id };
  }

  it('runs a stored trigger event as an unattended run in its own thread, once', async () => {
    const { agentId } = await calculatorAgent();
    const res = await t.app.inject({
      method: 'POST',
      url: `/backend/api/v1/agents/${agentId}/triggers/invoice-paid`,
      headers: auth,
      payload: { note: 'add 2 and 3' },
    });
    expect(res.statusCode).toBe(202);
    const eventId = res.json().id as number;

    expect(await t.app.triggers.drain()).toBe(1);
    const event = await t.db.kysely
      .selectFrom('trigger_events')
      .selectAll()
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    expect(event.status).toBe('done');
    const thread = await t.db.kysely
      .selectFrom('threads')
      .selectAll()
      .where('id', '=', event.thread_id!)
      .executeTakeFirstOrThrow();
    expect(thread).toMatchObject({ user_id: userId, agent_id: agentId, origin: 'trigger' });
    const messages = await t.db.kysely
      .selectFrom('messages')
      .select(['role', 'parts'])
      .where('thread_id', '=', thread.id)
      .orderBy('created_at')
      .execute();
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[0]!.parts).toContain('invoice-paid');
    expect(JSON.parse(messages[1]!.parts).length).toBeGreaterThan(0);

    // Nothing is left to run: the event ran once.
    expect(await t.app.triggers.drain()).toBe(0);
  });

  it('lets each event run once when several workers race; retries an orphan up to the attempt limit, in its thread', async () => {
    const { agentId } = await calculatorAgent();
    const now = new Date().toISOString();
    const old = new Date(Date.now() - 60 * 60_000).toISOString();
    const insert = (
      status: string,
      heartbeatAt: string | null,
      attempts = 0,
      threadId: string | null = null,
    ) =>
      t.db.kysely
        .insertInto('trigger_events')
        .values({
          user_id: userId,
          agent_id: agentId,
          trigger_id: 'tick',
          payload: '{}',
          status,
          attempts,
          heartbeat_at: heartbeatAt,
          instance_id: status === 'running' ? 'another-instance' : null,
          thread_id: threadId,
          created_at: now,
          updated_at: now,
        })
        .execute();
    for (let i = 0; i < 5; i++) await insert('pending', null);
    await insert('running', old, 1, 'thread-of-the-lost-run'); // its instance died mid-run
    await insert('running', old, 3); // lost three times already: given up
    await insert('running', now, 1); // still beating on another instance

    const runs: TriggerRun[] = [];
    const worker = (instanceId: string) =>
      createTriggerWorker({
        db: t.db,
        log: t.app.log,
        instanceId,
        maxAttempts: 3,
        run: async (run) => {
          runs.push(run);
          return { threadId: run.threadId, status: 'complete' };
        },
      });
    const [a, b] = await Promise.all([worker('a').drain(), worker('b').drain()]);
    expect(a + b).toBe(6);
    expect(runs).toHaveLength(6);
    // The orphan ran again as its second attempt, in the thread its first attempt made.
    expect(runs.find((r) => r.attempt === 2)).toMatchObject({ threadId: 'thread-of-the-lost-run' });
    // Every new event got a thread of its own, stored before it ran.
    expect(new Set(runs.map((r) => r.threadId)).size).toBe(6);
    const rows = await t.db.kysely
      .selectFrom('trigger_events')
      .select(['status', 'attempts'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { status: 'done', attempts: 1 },
      { status: 'done', attempts: 1 },
      { status: 'done', attempts: 1 },
      { status: 'done', attempts: 1 },
      { status: 'done', attempts: 1 },
      { status: 'done', attempts: 2 },
      { status: 'failed', attempts: 3 },
      { status: 'running', attempts: 1 },
    ]);
  });

  it("hands a provider's trigger event to the owner's agents that use that service", async () => {
    const { agentId, serviceId } = await calculatorAgent();
    const agents = createAgentsService(t.db, createAuditLog(t.db));
    await providerTriggerStore({ db: t.db, agents })({
      userId,
      serviceId,
      triggerId: 'ti_1',
      triggerSlug: 'CALC_EVENT',
      payload: { x: 1 },
    });
    const events = await t.db.kysely.selectFrom('trigger_events').selectAll().execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ user_id: userId, agent_id: agentId, trigger_id: 'CALC_EVENT' });
  });
});
