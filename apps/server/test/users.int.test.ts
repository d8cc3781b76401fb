import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NOT_ADMITTED_DETAIL } from '../src/http/auth.ts';
import { createAuditLog } from '../src/modules/audit/service.ts';
import { createUsersService } from '../src/modules/users/service.ts';
import { seedConnection, seedService, seedThread } from './support/seed.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { admit, bearer, passBetaGate, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const CHECK = '/backend/api/v1/users/check-user';
const EXPORT = '/backend/api/v1/users/me/export';
const ME = '/backend/api/v1/users/me';

/** Tables with a column naming the owning user. */
const USER_COLUMNS = [
  ['agents', 'user_id'],
  ['connections', 'user_id'],
  ['threads', 'user_id'],
  ['approvals', 'user_id'],
  ['trigger_events', 'user_id'],
  ['audit_events', 'user_id'],
  ['oauth_states', 'user_id'],
  ['message_feedback', 'user_id'],
  ['services', 'owner_user_id'],
] as const;

describe(`users on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  beforeAll(async () => {
    issuer = await startTestIssuer();
  });
  afterAll(async () => {
    await issuer?.close();
  });
  beforeEach(async () => {
    t = await createTestApp(issuer.env);
  });
  afterEach(async () => {
    await t?.close();
  });

  it('check-user creates the user from the claims, then updates name, email and picture', async () => {
    // The first sign-in comes from a browser that just entered the access code.
    const first = await admit(
      t,
      bearer(
        await issuer.token({
          sub: 'auth0|1',
          email: 'a@example.com',
          name: 'Alice',
          picture: 'https://p.example/a.png',
        }),
      ),
    );
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      issuer: issuer.url,
      subject: 'auth0|1',
      email: 'a@example.com',
      name: 'Alice',
      picture: 'https://p.example/a.png',
    });
    const second = await t.app.inject({
      method: 'POST',
      url: CHECK,
      headers: bearer(await issuer.token({ sub: 'auth0|1', email: 'alice@new.example', name: 'Alice B' })),
    });
    expect(second.json()).toMatchObject({
      id: first.json().id,
      email: 'alice@new.example',
      name: 'Alice B',
      picture: 'https://p.example/a.png',
    });
    expect(await t.db.kysely.selectFrom('users').selectAll().execute()).toHaveLength(1);
    const events = await t.db.kysely.selectFrom('audit_events').select(['action', 'user_id']).execute();
    expect(events).toEqual([
      { action: 'access_code.success', user_id: null },
      { action: 'user.admit', user_id: first.json().id },
      { action: 'user.sign_in', user_id: first.json().id },
      { action: 'user.sign_in', user_id: first.json().id },
    ]);
  });

  it('answers 401 without a token on every user call', async () => {
    for (const [method, url] of [
      ['POST', CHECK],
      ['GET', EXPORT],
      ['DELETE', ME],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toEqual({ detail: 'Not authenticated', code: 'unauthorized' });
    }
  });

  it('exports everything about the user without credentials, then deletes all of it', async () => {
    const aliceAuth = bearer(await issuer.token({ sub: 'alice', name: 'Alice' }));
    const bobAuth = bearer(await issuer.token({ sub: 'bob', name: 'Bob' }));
    const alice = (await admit(t, aliceAuth)).json();
    const bob = (await admit(t, bobAuth)).json();

    const catalog = await seedService(t.db, { name: 'Gmail', actions: 2 });
    const own = await seedService(t.db, { name: 'AliceMcp', ownerUserId: alice.id, actions: 1 });
    const canary = `sk-canary-${crypto.randomUUID()}`;
    await seedConnection(t.db, alice.id, catalog.serviceId, canary);
    await seedConnection(t.db, bob.id, catalog.serviceId, `sk-canary-bob-${crypto.randomUUID()}`);
    const agent = (
      await t.app.inject({
        method: 'POST',
        url: '/backend/api/v1/agents/',
        headers: aliceAuth,
        payload: {
          name: 'Mailer',
          description: 'Sends mail',
          icon: '📬',
          color: 'teal',
          starters: ['Any new mail?'],
          tool_ids: [catalog.actionIds[1], own.actionIds[0]],
        },
      })
    ).json();
    const bobAgent = (
      await t.app.inject({
        method: 'POST',
        url: '/backend/api/v1/agents/',
        headers: bobAuth,
        payload: { name: 'Bob agent', description: 'Bob', tool_ids: [catalog.actionIds[0]] },
      })
    ).json();
    const threadId = await seedThread(t.db, alice.id, agent.id, ['hello', 'hi there']);
    await seedThread(t.db, bob.id, bobAgent.id, ['bob says hi']);
    // Alice's thumbs down on the answer, with her comment.
    const answer = await t.db.kysely
      .selectFrom('messages')
      .select('id')
      .where('thread_id', '=', threadId)
      .where('role', '=', 'assistant')
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .insertInto('message_feedback')
      .values({
        message_id: answer.id,
        user_id: alice.id,
        rating: 'down',
        comment: 'Too short',
        updated_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
    await t.app.inject({
      method: 'POST',
      url: `/backend/api/v1/agents/${agent.id}/triggers/daily`,
      headers: aliceAuth,
      payload: { n: 1 },
    });

    const exported = await t.app.inject({ method: 'GET', url: EXPORT, headers: aliceAuth });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['cache-control']).toBe('no-store');
    expect(exported.body).not.toContain('sk-canary');
    expect(exported.body).not.toContain('Bob');
    const data = exported.json();
    expect(data.profile).toMatchObject({ id: alice.id, subject: 'alice', name: 'Alice' });
    expect(data.agents).toEqual([
      expect.objectContaining({
        id: agent.id,
        name: 'Mailer',
        icon: '📬',
        color: 'teal',
        starters: ['Any new mail?'],
        tool_ids: [catalog.actionIds[1], own.actionIds[0]],
      }),
    ]);
    expect(data.services).toEqual([expect.objectContaining({ id: own.serviceId, name: 'AliceMcp' })]);
    expect(data.connections).toEqual([
      expect.objectContaining({ service_id: catalog.serviceId, status: 'ACTIVE' }),
    ]);
    expect(Object.keys(data.connections[0]).sort()).toEqual([
      'created_at',
      'id',
      'last_error',
      'last_error_at',
      'last_used_at',
      'service_id',
      'status',
      'updated_at',
    ]);
    expect(data.threads).toEqual([expect.objectContaining({ id: threadId, agent_id: agent.id })]);
    expect(data.messages.map((m: { parts: { text: string }[] }) => m.parts[0]?.text)).toEqual([
      'hello',
      'hi there',
    ]);
    expect(data.messages.map((m: { feedback: unknown }) => m.feedback)).toEqual([
      null,
      { rating: 'down', comment: 'Too short', updated_at: '2026-01-01T00:00:00.000Z' },
    ]);
    expect(data.trigger_events).toEqual([
      expect.objectContaining({ agent_id: agent.id, trigger_id: 'daily', status: 'pending' }),
    ]);
    expect(data.audit_events.map((e: { action: string }) => e.action)).toEqual([
      'user.admit',
      'user.sign_in',
      'agent.create',
      'agent.trigger',
    ]);

    const del = await t.app.inject({ method: 'DELETE', url: ME, headers: aliceAuth });
    expect(del.statusCode).toBe(204);
    expect(await t.db.kysely.selectFrom('users').select('id').where('id', '=', alice.id).execute()).toEqual(
      [],
    );
    for (const [table, column] of USER_COLUMNS) {
      const rows = await t.db.kysely.selectFrom(table).select(column).where(column, '=', alice.id).execute();
      expect(rows, table).toEqual([]);
    }
    expect(
      await t.db.kysely.selectFrom('messages').select('id').where('thread_id', '=', threadId).execute(),
    ).toEqual([]);
    expect(
      await t.db.kysely
        .selectFrom('agent_tools')
        .select('agent_id')
        .where('agent_id', '=', agent.id)
        .execute(),
    ).toEqual([]);
    expect(
      await t.db.kysely.selectFrom('actions').select('id').where('id', '=', own.actionIds[0]!).execute(),
    ).toEqual([]);
    // The deletion itself is recorded without the user's id (P1: the id appears nowhere after).
    const record = await t.db.kysely
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'user.delete')
      .execute();
    expect(record).toMatchObject([{ user_id: null, object_type: 'user', object_id: null }]);

    // Bob's data is untouched.
    const bobList = await t.app.inject({ method: 'GET', url: '/backend/api/v1/agents/', headers: bobAuth });
    expect(bobList.json().map((a: { id: number }) => a.id)).toEqual([bobAgent.id]);
    expect(
      await t.db.kysely.selectFrom('connections').select('id').where('user_id', '=', bob.id).execute(),
    ).toHaveLength(1);
    expect(
      await t.db.kysely.selectFrom('actions').select('id').where('id', '=', catalog.actionIds[0]!).execute(),
    ).toHaveLength(1);

    // The same token afterwards names a new user, who must pass the beta gate again...
    const refused = await t.app.inject({ method: 'GET', url: EXPORT, headers: aliceAuth });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: NOT_ADMITTED_DETAIL, code: 'forbidden' });
    // ...and then finds a fresh, empty account, whose only history is that admission.
    const cookie = await passBetaGate(t.app, t.config);
    const again = (
      await t.app.inject({ method: 'GET', url: EXPORT, headers: { ...aliceAuth, cookie } })
    ).json();
    expect(again.profile.id).not.toBe(alice.id);
    for (const key of ['agents', 'services', 'connections', 'threads', 'messages', 'trigger_events']) {
      expect(again[key], key).toEqual([]);
    }
    expect(again.audit_events.map((e: { action: string }) => e.action)).toEqual(['user.admit']);
  });

  it('P1: runs beforeUserDelete hooks first, and a failing hook deletes nothing', async () => {
    const users = createUsersService(t.db, createAuditLog(t.db));
    const user = await users.resolve({ issuer: issuer.url, subject: 'erin' });
    const catalog = await seedService(t.db, { name: 'Notion', actions: 1 });
    await seedConnection(t.db, user.id, catalog.serviceId, null);
    const seen: number[] = [];
    users.beforeUserDelete.push(async (u) => {
      const rows = await t.db.kysely
        .selectFrom('connections')
        .select('id')
        .where('user_id', '=', u.id)
        .execute();
      seen.push(rows.length);
    });
    users.beforeUserDelete.push(async () => {
      throw new Error('provider unavailable');
    });
    await expect(users.deleteData(user)).rejects.toThrow('provider unavailable');
    expect(seen).toEqual([1]);
    expect(
      await t.db.kysely.selectFrom('users').select('id').where('id', '=', user.id).execute(),
    ).toHaveLength(1);
    users.beforeUserDelete.pop();
    await users.deleteData(user);
    expect(seen).toEqual([1, 1]);
    expect(
      await t.db.kysely.selectFrom('connections').select('id').where('user_id', '=', user.id).execute(),
    ).toEqual([]);
  });
});
