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

  it('lets each event run once when several workers race, and reclaims stale ones', async () => {
    const { agentId } = await calculatorAgent();
    const now = new Date().toISOString();
    const old = new Date(Date.now() - 60 * 60_000).toISOString();
    const insert = (status: string, updatedAt: string) =>
      t.db.kysely
        .insertInto('trigger_events')
        .values({
          user_id: userId,
          agent_id: agentId,
          trigger_id: 'tick',
          payload: '{}',
          status,
          created_at: updatedAt,
          updated_at: updatedAt,
        })
        .execute();
    for (let i = 0; i < 5; i++) await insert('pending', now);
    await insert('running', old); // left behind by an instance that died
    await insert('running', now); // still being run by another instance

    const runs: TriggerRun[] = [];
    const worker = () =>
      createTriggerWorker({
        db: t.db,
        log: t.app.log,
        run: async (run) => {
          runs.push(run);
          return { threadId: crypto.randomUUID(), status: 'complete' };
        },
      });
    const [a, b] = await Promise.all([worker().drain(), worker().drain()]);
    expect(a + b).toBe(6);
    expect(runs).toHaveLength(6);
    const statuses = await t.db.kysely.selectFrom('trigger_events').select('status').orderBy('id').execute();
    expect(statuses.map((s) => s.status)).toEqual([
      'done',
      'done',
      'done',
      'done',
      'done',
      'done',
      'running',
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
