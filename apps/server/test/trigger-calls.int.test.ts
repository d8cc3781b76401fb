import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signWebhook, webhookKey } from '../src/security/standard-webhooks.ts';
import {
  chatHarness,
  emailSchema,
  finishPart,
  scriptedModel,
  seedAction,
  textParts,
  toolCallPart,
  type ChatHarness,
} from './support/chat-fixtures.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const API = '/backend/api/v1';
const PER_MINUTE = 3;

/**
 * Trigger calls as a host makes them (issue 18, item 5): limited per agent across instances,
 * authenticated by a token or a Standard Webhooks signature, writes refused unless the owner
 * allowed them, and the last runs listed for the owner only.
 */
describe(`trigger calls on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let h: ChatHarness;
  let t: TestApp;
  let alice: Record<string, string>;
  let bob: Record<string, string>;
  let sendEmail: number;
  let rateClock: { now: () => number };

  beforeAll(async () => {
    issuer = await startTestIssuer();
  });
  afterAll(async () => {
    await issuer.close();
  });
  beforeEach(async () => {
    // The rate limit's clock stands still 10 s into a minute: a burst always fits in one window.
    const at = Math.floor(Date.now() / 60_000) * 60_000 + 10_000;
    rateClock = { now: () => at };
    h = await chatHarness(
      { ...issuer.env, TRIGGERS_PER_MINUTE: String(PER_MINUTE) },
      { triggers: rateClock },
    );
    t = h.t;
    // The tests run the queue themselves, so each step sees the events it made.
    await t.app.triggers.stop();
    ({ auth: alice } = await signInAs(t, issuer, { sub: 'alice', email: 'alice@example.com' }));
    ({ auth: bob } = await signInAs(t, issuer, { sub: 'bob', email: 'bob@example.com' }));
    sendEmail = await seedAction(t.db, {
      name: 'gmail_send',
      description: 'Sends an email',
      effect: 'send',
      schema: emailSchema,
    });
  });
  afterEach(async () => {
    await t?.close();
  });

  const newAgent = async (body: object = {}) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/agents/`,
      headers: alice,
      payload: { name: 'Mailer', description: 'Answers events', tool_ids: [sendEmail], ...body },
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ id: number; allow_unattended_writes: boolean; api_writes: string }>();
  };
  const trigger = (app: TestApp, agentId: number, headers: Record<string, string>, payload: object = {}) =>
    app.app.inject({ method: 'POST', url: `${API}/agents/${agentId}/triggers/event`, headers, payload });
  /** Runs the queued events now (the worker is stopped between steps so nothing runs unseen). */
  const runQueue = async () => {
    t.app.triggers.start();
    try {
      return await t.app.triggers.drain();
    } finally {
      await t.app.triggers.stop();
    }
  };
  const eventCount = async () =>
    (await t.db.kysely.selectFrom('trigger_events').select('id').execute()).length;

  it('limits one agent to TRIGGERS_PER_MINUTE calls, counted across instances: then 429 with Retry-After', async () => {
    const agent = await newAgent();
    const other = await newAgent();
    // A second instance on the same PostgreSQL shares the count; SQLite has a single instance.
    const second =
      testDatabaseKind() === 'postgres'
        ? await createTestApp({}, { triggers: rateClock }, { sameDatabaseAs: t })
        : t;
    try {
      const answers = [];
      for (let i = 0; i <= PER_MINUTE; i++) answers.push(await trigger(i % 2 ? second : t, agent.id, alice));
      expect(answers.map((a) => a.statusCode)).toEqual([202, 202, 202, 429]);
      const refused = answers[PER_MINUTE]!;
      // The clock stands 10 s into the fixed one-minute window.
      expect(refused.headers['retry-after']).toBe('50');
      expect(refused.json()).toEqual({
        detail: `Too many trigger calls: this agent accepts ${PER_MINUTE} a minute; retry in 50 seconds`,
        code: 'rate_limited',
      });
      expect(await eventCount()).toBe(PER_MINUTE);
      // The count is the agent's: another agent of the same owner is still called.
      expect((await trigger(second, other.id, alice)).statusCode).toBe(202);
    } finally {
      if (second !== t) await second.close();
    }
  });

  it('takes a call signed with the agent’s secret; refuses a bad or old signature; runs a resent webhook-id once', async () => {
    const agent = await newAgent();
    // No secret yet: a signed call is refused like a bad signature.
    const body = JSON.stringify({ order: 42 });
    const signed = (secret: string, id: string, timestamp = Math.floor(Date.now() / 1000), raw = body) => ({
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(webhookKey(secret), id, timestamp, raw),
    });
    const post = (headers: Record<string, string>, payload = body) =>
      t.app.inject({ method: 'POST', url: `${API}/agents/${agent.id}/triggers/order`, headers, payload });
    const fake = `whsec_${Buffer.from('not the secret').toString('base64')}`;
    expect((await post(signed(fake, 'msg_0'))).statusCode).toBe(401);

    const made = await t.app.inject({
      method: 'POST',
      url: `${API}/agents/${agent.id}/trigger-secret`,
      headers: alice,
    });
    expect(made.statusCode).toBe(201);
    const { secret } = made.json<{ secret: string }>();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    // Stored sealed, and never shown again.
    const stored = await t.db.kysely.selectFrom('trigger_secrets').select('secret').executeTakeFirstOrThrow();
    expect(stored.secret).not.toContain(secret.slice(6));
    const status = await t.app.inject({
      method: 'GET',
      url: `${API}/agents/${agent.id}/trigger-secret`,
      headers: alice,
    });
    expect(status.json()).toEqual({ created_at: expect.any(String) });

    const first = await post(signed(secret, 'msg_1'));
    expect(first.statusCode).toBe(202);
    const resent = await post(signed(secret, 'msg_1'));
    expect(resent.statusCode).toBe(202);
    expect(resent.json()).toEqual(first.json());
    expect(await eventCount()).toBe(1);

    const refusals = [
      post(signed(fake, 'msg_2')),
      post(signed(secret, 'msg_3', Math.floor(Date.now() / 1000) - 301)),
      post(signed(secret, 'msg_4'), JSON.stringify({ order: 43 })),
      post({ 'content-type': 'application/json', 'webhook-signature': 'v1,abc' }),
    ];
    const answers = await Promise.all(refusals);
    expect(answers.map((a) => a.statusCode)).toEqual([401, 401, 401, 401]);
    expect(answers.map((a) => a.json().detail)).toEqual([
      'Invalid webhook signature',
      'Webhook timestamp outside the allowed window',
      'Invalid webhook signature',
      'Missing webhook signature headers',
    ]);
    expect(await eventCount()).toBe(1);

    // Rotated: the old secret stops at once. Deleted: signed calls stop; the token still works.
    const rotated = await t.app.inject({
      method: 'POST',
      url: `${API}/agents/${agent.id}/trigger-secret`,
      headers: alice,
    });
    expect((await post(signed(secret, 'msg_5'))).statusCode).toBe(401);
    expect((await post(signed(rotated.json<{ secret: string }>().secret, 'msg_6'))).statusCode).toBe(202);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `${API}/agents/${agent.id}/trigger-secret`,
      headers: alice,
    });
    expect(removed.statusCode).toBe(204);
    expect((await post(signed(rotated.json<{ secret: string }>().secret, 'msg_7'))).statusCode).toBe(401);
    expect((await trigger(t, agent.id, alice)).statusCode).toBe(202);

    const audit = await t.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'detail'])
      .where('action', 'in', ['agent.trigger', 'agent.trigger_secret', 'agent.trigger_secret_delete'])
      .orderBy('id')
      .execute();
    expect(
      audit.map((a) => [a.action, JSON.parse(a.detail ?? '{}').via ?? JSON.parse(a.detail ?? '{}').rotated]),
    ).toEqual([
      ['agent.trigger_secret', false],
      ['agent.trigger', 'signature'],
      ['agent.trigger_secret', true],
      ['agent.trigger', 'signature'],
      ['agent.trigger_secret_delete', undefined],
      ['agent.trigger', 'token'],
    ]);
  });

  it('takes a call made with an API key of the chat scope, within the agents the key is limited to', async () => {
    const agent = await newAgent();
    const other = await newAgent();
    const newKey = async (body: object) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/api-keys`,
        headers: alice,
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(201);
      return { authorization: `Bearer ${res.json<{ key: string }>().key}` };
    };
    const chatKey = await newKey({ name: 'events', scopes: ['chat'], agent_ids: [agent.id] });
    const readKey = await newKey({ name: 'reader', scopes: ['agents:read'] });

    const accepted = await trigger(t, agent.id, chatKey, { order: 42 });
    expect(accepted.statusCode, accepted.body).toBe(202);
    const event = await t.db.kysely
      .selectFrom('trigger_events')
      .selectAll()
      .where('id', '=', accepted.json<{ id: number }>().id)
      .executeTakeFirstOrThrow();
    const owner = await t.db.kysely
      .selectFrom('agents')
      .select('user_id')
      .where('id', '=', agent.id)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ user_id: owner.user_id, agent_id: agent.id, trigger_id: 'event' });
    expect(JSON.parse(event.payload)).toEqual({ order: 42 });
    const audited = await t.db.kysely
      .selectFrom('audit_events')
      .select('detail')
      .where('action', '=', 'agent.trigger')
      .where('object_id', '=', String(agent.id))
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audited.detail)).toMatchObject({ via: 'token' });

    // Outside the key's agents: as if the agent did not exist. Without the scope: 403 naming it.
    const outside = await trigger(t, other.id, chatKey);
    expect(outside.statusCode).toBe(404);
    expect(outside.json()).toEqual({ detail: 'Agent not found', code: 'not_found' });
    const unscoped = await trigger(t, agent.id, readKey);
    expect(unscoped.statusCode).toBe(403);
    expect(unscoped.json().detail).toMatch(/chat/);
    // Bob's agent with a key of Alice's that has no agent limit: not found either.
    const bobs = await t.app.inject({
      method: 'POST',
      url: `${API}/agents/`,
      headers: bob,
      payload: { name: 'Bob agent', description: 'd' },
    });
    const allAgents = await newKey({ name: 'all', scopes: ['chat'] });
    expect((await trigger(t, bobs.json<{ id: number }>().id, allAgents)).statusCode).toBe(404);
    expect(await eventCount()).toBe(1);
  });

  it('refuses a write tool in a triggered run until the owner allows unattended writes (audited), then runs it', async () => {
    const agent = await newAgent();
    // API and MCP callers get an approval link (the default) while triggers refuse: apart settings.
    expect(agent).toMatchObject({ allow_unattended_writes: false, api_writes: 'approve' });
    const sendsOnce = () =>
      scriptedModel((_o, n) =>
        n === 0
          ? [
              toolCallPart(`c-${crypto.randomUUID()}`, 'gmail_send', { to: 'a@b.c', body: 'paid' }),
              finishPart('tool-calls'),
            ]
          : [...textParts('done'), finishPart('stop')],
      );

    h.model.slot.model = sendsOnce();
    expect((await trigger(t, agent.id, alice, { invoice: 1 })).statusCode).toBe(202);
    expect(await runQueue()).toBe(1);
    expect(h.tools.calls).toEqual([]);
    const refusedThread = (
      await t.db.kysely.selectFrom('trigger_events').select('thread_id').executeTakeFirstOrThrow()
    ).thread_id!;
    const answer = await t.db.kysely
      .selectFrom('messages')
      .select('parts')
      .where('thread_id', '=', refusedThread)
      .where('role', '=', 'assistant')
      .executeTakeFirstOrThrow();
    expect(answer.parts).toContain('Allow write actions in unattended runs');

    const patched = await t.app.inject({
      method: 'PATCH',
      url: `${API}/agents/${agent.id}`,
      headers: alice,
      payload: { allow_unattended_writes: true },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().allow_unattended_writes).toBe(true);
    // Bob cannot turn it on for Alice's agent.
    const bobs = await t.app.inject({
      method: 'PATCH',
      url: `${API}/agents/${agent.id}`,
      headers: bob,
      payload: { allow_unattended_writes: false },
    });
    expect(bobs.statusCode).toBe(404);

    h.model.slot.model = sendsOnce();
    const queued = await trigger(t, agent.id, alice, { invoice: 2 });
    expect(queued.statusCode).toBe(202);
    expect(await runQueue()).toBe(1);
    // The write carries the event's key (event, action, its first call), so a retry cannot repeat it.
    expect(h.tools.calls).toEqual([
      expect.objectContaining({
        actionId: sendEmail,
        args: { to: 'a@b.c', body: 'paid' },
        idempotencyKey: `trigger-event:${queued.json<{ id: number }>().id}:${sendEmail}:1`,
      }),
    ]);

    // Saving it unchanged is not a change; turning it off is.
    for (const allow of [true, false]) {
      await t.app.inject({
        method: 'PATCH',
        url: `${API}/agents/${agent.id}`,
        headers: alice,
        payload: { allow_unattended_writes: allow },
      });
    }
    const audited = await t.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'object_id', 'detail'])
      .where('action', '=', 'agent.unattended_writes')
      .orderBy('id')
      .execute();
    expect(audited.map((a) => [a.object_id, JSON.parse(a.detail!)])).toEqual([
      [String(agent.id), { allowed: true }],
      [String(agent.id), { allowed: false }],
    ]);
  });

  it('runs a lost event again from the event alone, in its thread, and its write carries the same key', async () => {
    const agent = await newAgent({ allow_unattended_writes: true });
    const prompts: string[][] = [];
    h.model.slot.model = scriptedModel((options, n) => {
      prompts.push(options.prompt.map((m) => m.role));
      return n % 2 === 0
        ? [
            toolCallPart(`c-${n}`, 'gmail_send', { to: 'a@b.c', body: `paid (attempt ${n})` }),
            finishPart('tool-calls'),
          ]
        : [...textParts('done'), finishPart('stop')];
    });
    const eventId = (await trigger(t, agent.id, alice, { invoice: 3 })).json<{ id: number }>().id;
    expect(await runQueue()).toBe(1);
    // Its instance "died" before it could mark the event done: the event looks orphaned.
    await t.db.kysely
      .updateTable('trigger_events')
      .set({ status: 'running', instance_id: 'a-dead-instance', heartbeat_at: new Date(0).toISOString() })
      .where('id', '=', eventId)
      .execute();
    expect(await runQueue()).toBe(1);
    const key = `trigger-event:${eventId}:${sendEmail}:1`;
    expect(h.tools.calls.map((c) => [c.idempotencyKey, c.args.body])).toEqual([
      [key, 'paid (attempt 0)'],
      [key, 'paid (attempt 2)'],
    ]);
    // The retry's model saw the event, not the first attempt's answer.
    expect(prompts[2]).toEqual(prompts[0]);
    const event = await t.db.kysely
      .selectFrom('trigger_events')
      .select(['attempts', 'thread_id', 'status'])
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ attempts: 2, status: 'done' });
    const threads = await t.db.kysely
      .selectFrom('threads')
      .select('id')
      .where('origin', '=', 'trigger')
      .execute();
    expect(threads.map((r) => r.id)).toContain(event.thread_id);
  });

  it("lists the agent's last events with their status and thread, to the owner only", async () => {
    const agent = await newAgent();
    h.model.slot.model = scriptedModel(() => [...textParts('noted'), finishPart('stop')]);
    const first = (await trigger(t, agent.id, alice, { n: 1 })).json<{ id: number }>().id;
    await runQueue();
    const second = (await trigger(t, agent.id, alice, { n: 2 })).json<{ id: number }>().id;

    const list = await t.app.inject({
      method: 'GET',
      url: `${API}/agents/${agent.id}/triggers/events`,
      headers: alice,
    });
    expect(list.statusCode).toBe(200);
    const ran = await t.db.kysely
      .selectFrom('trigger_events')
      .select('thread_id')
      .where('id', '=', first)
      .executeTakeFirstOrThrow();
    expect(list.json()).toEqual([
      {
        id: second,
        trigger_id: 'event',
        status: 'pending',
        attempts: 0,
        thread_id: null,
        received_at: expect.any(String),
        updated_at: expect.any(String),
      },
      {
        id: first,
        trigger_id: 'event',
        status: 'done',
        attempts: 1,
        thread_id: ran.thread_id,
        received_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    // The thread is the agent's, where the editor's link opens it.
    const thread = await t.db.kysely
      .selectFrom('threads')
      .select(['agent_id', 'origin'])
      .where('id', '=', ran.thread_id!)
      .executeTakeFirstOrThrow();
    expect(thread).toEqual({ agent_id: agent.id, origin: 'trigger' });

    const forBob = await t.app.inject({
      method: 'GET',
      url: `${API}/agents/${agent.id}/triggers/events`,
      headers: bob,
    });
    expect(forBob.statusCode).toBe(404);
    expect(forBob.json()).toEqual({ detail: 'Agent not found', code: 'not_found' });
  });
});
