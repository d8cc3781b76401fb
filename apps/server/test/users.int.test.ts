import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NOT_ADMITTED_DETAIL } from '../src/http/auth.ts';
import { createAuditLog } from '../src/modules/audit/service.ts';
import { createUsersService } from '../src/modules/users/service.ts';
import { signUpAndSignIn } from './support/oidc-flow.ts';
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

  /** The users rows of the issuer's subject `sub` (the API would make one for a token naming it). */
  const usersNamed = (sub: string, on: TestApp = t) =>
    on.db.kysely
      .selectFrom('users')
      .select('id')
      .where('issuer', '=', issuer.url)
      .where('subject', '=', sub)
      .execute();

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
    // Bob's account comes first, so he is the workspace's admin and Alice may delete her own.
    const bob = (await admit(t, bobAuth)).json();
    const alice = (await admit(t, aliceAuth)).json();

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

    // The same token afterwards is refused, even with the beta gate's proof, and brings nobody back.
    const cookie = await passBetaGate(t.app, t.config);
    for (const headers of [aliceAuth, { ...aliceAuth, cookie }]) {
      const refused = await t.app.inject({ method: 'GET', url: EXPORT, headers });
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ detail: 'Not authenticated', code: 'unauthorized' });
    }
    expect(await usersNamed('alice')).toEqual([]);
  });

  it('a deleted account stays deleted: its unexpired tokens are refused on every instance and create no user', async () => {
    const other = await createTestApp({}, {}, { sameDatabaseAs: t });
    try {
      // Two tokens issued before the deletion (the issuer's tokens live 5 minutes): one in use on
      // both instances, one never shown to Cadre before.
      const used = bearer(await issuer.token({ sub: 'dora' }, { issuedAt: -100 }));
      const unused = bearer(await issuer.token({ sub: 'dora' }, { issuedAt: -50 }));
      const dora = (await admit(t, used)).json<{ id: number }>();
      const agents = (on: TestApp, headers: Record<string, string>) =>
        on.app.inject({ method: 'GET', url: '/backend/api/v1/agents/', headers });
      expect((await agents(other, used)).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'DELETE', url: ME, headers: used })).statusCode).toBe(204);

      const cookie = await passBetaGate(t.app, t.config);
      for (const on of [t, other]) {
        for (const auth of [used, unused]) {
          expect((await agents(on, auth)).statusCode).toBe(401);
          const check = await on.app.inject({ method: 'POST', url: CHECK, headers: { ...auth, cookie } });
          expect(check.statusCode).toBe(401);
          // The chat accepts the API's tokens too (opening an agent's chat).
          const chat = await on.app.inject({
            method: 'POST',
            url: '/chainlit/auth/header',
            headers: { ...auth, 'x-agent-id': '1' },
          });
          expect(chat.statusCode).toBe(401);
        }
      }
      expect(await usersNamed('dora')).toEqual([]);
      // Nothing of Dora is kept in clear to do so: the record holds a keyed hash and a time.
      const records = await t.db.kysely.selectFrom('deleted_identities').selectAll().execute();
      expect(records).toHaveLength(1);
      expect(JSON.stringify(records)).not.toContain('dora');

      // A deliberate new sign-in at the issuer later (here: the deletion was a minute ago) makes a
      // new, empty account that passes the gate again; the tokens issued before stay refused.
      await t.db.kysely
        .updateTable('deleted_identities')
        .set({ deleted_at: new Date(Date.now() - 60_000).toISOString() })
        .execute();
      const fresh = bearer(await issuer.token({ sub: 'dora' }));
      const notAdmitted = await agents(other, fresh);
      expect(notAdmitted.statusCode).toBe(403);
      expect(notAdmitted.json()).toEqual({ detail: NOT_ADMITTED_DETAIL, code: 'forbidden' });
      const again = await admit(other, fresh);
      expect(again.statusCode).toBe(200);
      expect(again.json<{ id: number }>().id).not.toBe(dora.id);
      expect((await agents(t, fresh)).json()).toEqual([]);
      // A token without `iat` cannot show it was issued after the deletion.
      const noIat = bearer(await issuer.token({ sub: 'dora' }, { issuedAt: null }));
      for (const on of [t, other])
        for (const auth of [used, unused, noIat]) expect((await agents(on, auth)).statusCode).toBe(401);
      expect(await usersNamed('dora')).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('P1: runs beforeUserDelete hooks first, and a failing hook deletes nothing', async () => {
    // Its own key: this test reads no record of a deletion.
    const users = createUsersService(t.db, createAuditLog(t.db), { secret: crypto.randomBytes(32) });
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

describe(`a deleted account of the built-in identity provider, on ${testDatabaseKind()}`, () => {
  it('stays deleted: its access token is refused on every instance and creates no user; signing up again makes a new one', async () => {
    const t = await createTestApp();
    const other = await createTestApp({}, {}, { sameDatabaseAs: t });
    try {
      const account = { name: 'Uma', email: 'uma@example.com', password: 'a long enough password' };
      const uma = await signUpAndSignIn(t.app, t.config, account);
      const agents = (on: TestApp) =>
        on.app.inject({ method: 'GET', url: '/backend/api/v1/agents/', headers: uma.auth });
      expect((await agents(other)).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'DELETE', url: ME, headers: uma.auth })).statusCode).toBe(204);
      for (const on of [t, other]) expect((await agents(on)).statusCode).toBe(401);
      const named = () =>
        t.db.kysely.selectFrom('users').select('id').where('subject', '=', uma.subject).execute();
      expect(await named()).toEqual([]);

      // The same email signs up again: a new account at the provider, so a new subject and user.
      const again = await signUpAndSignIn(other.app, other.config, account);
      expect(again.subject).not.toBe(uma.subject);
      expect(again.id).not.toBe(uma.id);
      expect((await t.app.inject({ method: 'GET', url: EXPORT, headers: again.auth })).statusCode).toBe(200);
      expect(await named()).toEqual([]);
    } finally {
      await other.close();
      await t.close();
    }
  });
});
