import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DISABLED_DETAIL } from '../src/http/auth.ts';
import { LAST_ADMIN_DETAIL } from '../src/security/policy.ts';
import { signWebhook, webhookKey } from '../src/security/standard-webhooks.ts';
import { chatSessionCookie, seedAgent } from './support/chat-fixtures.ts';
import { addFile, createAgent, filesOf, versionsOf } from './support/knowledge-api.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { admit, bearer, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const API = '/backend/api/v1';
const ROLE_CLAIM = 'https://cadre.test/role';

/**
 * Roles (issue 26 item 1), groups (item 2) and the admin API (item 3), against an external issuer
 * whose tokens carry the configured role and groups claims. The role matrix over every route is
 * role-matrix.int.test.ts.
 */
describe(`roles, groups and the admin API on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  beforeAll(async () => {
    issuer = await startTestIssuer();
  });
  afterAll(async () => {
    await issuer?.close();
  });
  beforeEach(async () => {
    t = await createTestApp({
      ...issuer.env,
      OIDC_ROLE_CLAIM: ROLE_CLAIM,
      OIDC_GROUPS_CLAIM: 'groups',
    });
  });
  afterEach(async () => {
    await t?.close();
  });

  /** Signs in as the web app does (check-user); returns the header, the profile and the call. */
  const signIn = async (sub: string, claims: Record<string, unknown> = {}) => {
    const auth = bearer(await issuer.token({ sub, name: sub, email: `${sub}@example.com`, ...claims }));
    const res = await admit(t, auth);
    expect(res.statusCode).toBe(200);
    return { auth, me: res.json<{ id: number; role: string }>() };
  };
  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    auth: object,
    payload?: object,
  ) => t.app.inject({ method, url: `${API}${url}`, headers: auth as Record<string, string>, payload });

  it('makes the first account admin and the next ones the default role; ADMIN_EMAILS and the configured claim decide at sign-in, nothing else does', async () => {
    const alice = await signIn('alice');
    expect(alice.me.role).toBe('admin');
    expect((await signIn('bob')).me.role).toBe('builder');

    const settings = await call('PATCH', '/admin/settings', alice.auth, { default_role: 'member' });
    expect(settings.json()).toEqual({ default_role: 'member' });
    // A role in another claim, or in the body, is ignored.
    const carol = await signIn('carol', { role: 'admin', roles: ['admin'] });
    expect(carol.me.role).toBe('member');
    const withBody = await t.app.inject({
      method: 'POST',
      url: `${API}/users/check-user`,
      headers: carol.auth,
      payload: { role: 'admin' },
    });
    expect(withBody.json().role).toBe('member');

    // The configured claim sets the role at every sign-in; the highest of a list wins.
    expect((await signIn('dave', { [ROLE_CLAIM]: ['member', 'builder'] })).me.role).toBe('builder');
    expect((await signIn('dave', { [ROLE_CLAIM]: 'member' })).me.role).toBe('member');
    expect((await signIn('dave', { [ROLE_CLAIM]: 'superuser' })).me.role).toBe('member');
    const changes = await t.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'detail'])
      .where('action', 'in', ['user.role_change', 'workspace.settings_change'])
      .execute();
    expect(changes.map((c) => c.action)).toEqual([
      'workspace.settings_change',
      'user.role_change',
      'user.role_change',
    ]);
  });

  it('with ADMIN_EMAILS, makes admins of the named emails only (in any case, unless unverified), not of the first account', async () => {
    await t.close();
    t = await createTestApp({ ...issuer.env, ADMIN_EMAILS: 'Boss@Example.com' });
    expect((await signIn('first')).me.role).toBe('builder');
    expect((await signIn('erin', { email: 'boss@example.com', email_verified: false })).me.role).toBe(
      'builder',
    );
    expect((await signIn('erin', { email: 'BOSS@example.com' })).me.role).toBe('admin');
  });

  it('keeps the groups of the claim in sync at sign-in; they are marked and cannot be changed by hand', async () => {
    const admin = await signIn('admin');
    const dave = await signIn('dave', { groups: ['Sales', 'Ops', 'Sales', ' '] });
    const groupsOf = async () =>
      (await call('GET', `/admin/people/${dave.me.id}`, admin.auth)).json<{ groups: { name: string }[] }>()
        .groups;
    expect(await groupsOf()).toEqual([
      expect.objectContaining({ name: 'Ops', source: 'oidc' }),
      expect.objectContaining({ name: 'Sales', source: 'oidc' }),
    ]);
    // A hand-made group of the same name is another group, and stays when the claim changes.
    const team = (await call('POST', '/admin/groups', admin.auth, { name: 'Sales' })).json<{ id: number }>();
    expect((await call('PUT', `/admin/groups/${team.id}/members/${dave.me.id}`, admin.auth)).statusCode).toBe(
      204,
    );
    await signIn('dave', { groups: ['Ops'] });
    expect((await groupsOf()).map((g) => `${g.name}`)).toEqual(['Ops', 'Sales']);
    // Without the claim in the token, memberships stay as they are.
    await signIn('dave');
    expect(await groupsOf()).toHaveLength(2);

    const claimed = (await call('GET', '/admin/groups', admin.auth))
      .json<{ id: number; name: string; source: string; member_count: number }[]>()
      .find((g) => g.source === 'oidc' && g.name === 'Ops')!;
    expect(claimed.member_count).toBe(1);
    for (const res of [
      await call('PATCH', `/admin/groups/${claimed.id}`, admin.auth, { name: 'Renamed' }),
      await call('DELETE', `/admin/groups/${claimed.id}`, admin.auth),
      await call('DELETE', `/admin/groups/${claimed.id}/members/${dave.me.id}`, admin.auth),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().detail).toMatch(/groups claim/);
    }
  });

  it('lets admins manage groups: create, rename, members, delete; names are unique', async () => {
    const admin = await signIn('admin');
    const bob = await signIn('bob');
    const created = await call('POST', '/admin/groups', admin.auth, { name: '  Support ' });
    expect(created.statusCode).toBe(201);
    const group = created.json<{ id: number }>();
    expect(created.json()).toMatchObject({ name: 'Support', source: 'manual', member_count: 0 });
    expect((await call('POST', '/admin/groups', admin.auth, { name: 'Support' })).statusCode).toBe(409);
    expect((await call('POST', '/admin/groups', admin.auth, { name: '' })).statusCode).toBe(422);
    expect((await call('PATCH', `/admin/groups/${group.id}`, admin.auth, { name: 'Help' })).json().name).toBe(
      'Help',
    );
    expect((await call('PUT', `/admin/groups/${group.id}/members/${bob.me.id}`, admin.auth)).statusCode).toBe(
      204,
    );
    expect((await call('PUT', `/admin/groups/${group.id}/members/999999`, admin.auth)).statusCode).toBe(404);
    const members = await call('GET', `/admin/groups/${group.id}/members`, admin.auth);
    expect(members.json().map((p: { id: number }) => p.id)).toEqual([bob.me.id]);
    expect(
      (await call('DELETE', `/admin/groups/${group.id}/members/${bob.me.id}`, admin.auth)).statusCode,
    ).toBe(204);
    expect((await call('DELETE', `/admin/groups/${group.id}`, admin.auth)).statusCode).toBe(204);
    expect((await call('GET', `/admin/groups/${group.id}/members`, admin.auth)).statusCode).toBe(404);
    const actions = await t.db.kysely
      .selectFrom('audit_events')
      .select('action')
      .where('action', 'like', 'group.%')
      .orderBy('id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual([
      'group.create',
      'group.rename',
      'group.member_add',
      'group.member_remove',
      'group.delete',
    ]);
  });

  it('lets a member use but not build, with a 403 that names the role; builders may not administer', async () => {
    const admin = await signIn('admin');
    const member = await signIn('mia');
    await call('PATCH', `/admin/people/${member.me.id}`, admin.auth, { role: 'member' });
    const refused = await call('POST', '/agents/', member.auth, { name: 'x', description: 'x' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: 'forbidden',
      detail: 'Creating or changing agents needs the builder or admin role; this account is a member',
    });
    expect((await call('POST', '/api-keys', member.auth, { name: 'k', scopes: ['chat'] })).statusCode).toBe(
      403,
    );
    expect((await call('POST', '/services/custom_mcp', member.auth, {})).statusCode).toBe(403);
    expect((await call('GET', '/agents/', member.auth)).statusCode).toBe(200);
    expect((await call('GET', '/users/me', member.auth)).json().role).toBe('member');
    const builder = await signIn('bob');
    const notAdmin = await call('GET', '/admin/people', builder.auth);
    expect(notAdmin.statusCode).toBe(403);
    expect(notAdmin.json().detail).toBe('The admin console needs the admin role; this account is a builder');
  });

  it('never leaves the workspace without an active admin', async () => {
    const admin = await signIn('admin');
    const bob = await signIn('bob');
    for (const change of [{ role: 'builder' }, { disabled: true }]) {
      const res = await call('PATCH', `/admin/people/${admin.me.id}`, admin.auth, change);
      expect(res.statusCode).toBe(409);
      expect(res.json().detail).toBe(LAST_ADMIN_DETAIL);
    }
    const own = await call('DELETE', `/admin/people/${admin.me.id}`, admin.auth, {
      confirmation: 'admin@example.com',
      agents_to: null,
    });
    expect(own.statusCode).toBe(409);
    expect((await call('DELETE', '/users/me', admin.auth)).statusCode).toBe(409);
    // With a second admin, the first may step down.
    expect(
      (await call('PATCH', `/admin/people/${bob.me.id}`, admin.auth, { role: 'admin' })).json().role,
    ).toBe('admin');
    expect(
      (await call('PATCH', `/admin/people/${admin.me.id}`, admin.auth, { role: 'member' })).statusCode,
    ).toBe(200);
    expect((await call('GET', '/admin/people', admin.auth)).statusCode).toBe(403);
  });

  it('disables an account: its tokens, API keys, chat sessions and copilot tokens stop at the next request, on every instance; enabling lets it back', async () => {
    const admin = await signIn('admin');
    const bob = await signIn('bob');
    const agentId = await seedAgent(t.db, bob.me.id);
    const key = (
      await call('POST', '/api-keys', bob.auth, { name: 'k', scopes: ['chat', 'agents:read'] })
    ).json().key;
    const keyAuth = { authorization: `Bearer ${key}` };
    const copilot = (
      await call('POST', '/auth/chainlit-copilot-login', bob.auth, { agent_id: agentId })
    ).json().copilot_auth_token as string;
    const cookie = await chatSessionCookie(t, bob.auth, agentId);
    const secret = (await call('POST', `/agents/${agentId}/trigger-secret`, bob.auth)).json()
      .secret as string;
    const triggerSigned = (id: string) => {
      const timestamp = Math.floor(Date.now() / 1000);
      return t.app.inject({
        method: 'POST',
        url: `${API}/agents/${agentId}/triggers/order`,
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(webhookKey(secret), id, timestamp, '{}'),
        },
        payload: '{}',
      });
    };
    expect((await triggerSigned('msg_before')).statusCode).toBe(202);
    const second = await createTestApp({}, {}, { sameDatabaseAs: t });
    try {
      // Warm both instances' caches with the key.
      expect((await call('GET', '/agents/', keyAuth)).statusCode).toBe(200);
      const onSecond = () => second.app.inject({ method: 'GET', url: `${API}/agents/`, headers: keyAuth });
      expect((await onSecond()).statusCode).toBe(200);

      const disabled = await call('PATCH', `/admin/people/${bob.me.id}`, admin.auth, { disabled: true });
      expect(disabled.json().disabled_at).not.toBeNull();
      const refused = await call('GET', '/agents/', bob.auth);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ code: 'account_disabled', detail: DISABLED_DETAIL });
      const refusedThere = await second.app.inject({
        method: 'GET',
        url: `${API}/agents/`,
        headers: bob.auth,
      });
      expect(refusedThere.json().code).toBe('account_disabled');
      expect((await call('GET', '/agents/', keyAuth)).statusCode).toBe(401);
      // SQLite is one instance by design; on PostgreSQL the second instance hears the signal.
      if (testDatabaseKind() === 'postgres')
        await expect.poll(async () => (await onSecond()).statusCode).toBe(401);
      const threads = (headers: Record<string, string>) =>
        t.app.inject({ method: 'GET', url: '/chainlit/threads', headers });
      expect((await threads({ cookie })).statusCode).toBe(401);
      expect((await threads({ authorization: `Bearer ${copilot}` })).statusCode).toBe(401);
      // A call signed with the agent's trigger secret acts as the owner: refused too.
      const signedCall = await triggerSigned('msg_disabled');
      expect(signedCall.statusCode).toBe(403);
      expect(signedCall.json().code).toBe('account_disabled');
      const opened = await t.app.inject({
        method: 'POST',
        url: '/chainlit/auth/header',
        headers: { ...bob.auth, 'x-agent-id': String(agentId) },
      });
      expect(opened.statusCode).toBe(401);

      expect(
        (await call('PATCH', `/admin/people/${bob.me.id}`, admin.auth, { disabled: false })).statusCode,
      ).toBe(200);
      expect((await call('GET', '/agents/', bob.auth)).statusCode).toBe(200);
      expect((await call('GET', '/agents/', keyAuth)).statusCode).toBe(200);
      // Ended sessions stay ended.
      expect((await threads({ cookie })).statusCode).toBe(401);
    } finally {
      await second.close();
    }
    const actions = await t.db.kysely
      .selectFrom('audit_events')
      .select('action')
      .where('action', 'in', ['user.disable', 'user.enable'])
      .orderBy('id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual(['user.disable', 'user.enable']);
  });

  it('deletes an account after its typed confirmation, handing its agents to another or deleting them', async () => {
    const admin = await signIn('admin');
    const bob = await signIn('bob');
    const carol = await signIn('carol');
    // Bob's agent with a version, a knowledge file and a trigger secret, all made through the API.
    const bobsAgent = await createAgent(t, bob.auth, 'Bobs');
    await addFile(t, bob.auth, bobsAgent, 'notes.md', '# Notes\n\nThe launch is on Tuesday.');
    expect((await call('POST', `/agents/${bobsAgent}/trigger-secret`, bob.auth)).statusCode).toBe(201);
    const versions = (await versionsOf(t, bob.auth, bobsAgent)).length;
    expect(versions).toBeGreaterThan(0);
    const carolsAgent = await seedAgent(t.db, carol.me.id, 'Carols');
    const wrong = await call('DELETE', `/admin/people/${bob.me.id}`, admin.auth, {
      confirmation: 'bob',
      agents_to: admin.me.id,
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().detail[0].loc).toEqual(['body', 'confirmation']);
    const toSelf = await call('DELETE', `/admin/people/${bob.me.id}`, admin.auth, {
      confirmation: 'bob@example.com',
      agents_to: bob.me.id,
    });
    expect(toSelf.json().detail[0].loc).toEqual(['body', 'agents_to']);

    const handed = await call('DELETE', `/admin/people/${bob.me.id}`, admin.auth, {
      confirmation: 'bob@example.com',
      agents_to: admin.me.id,
    });
    expect(handed.statusCode).toBe(204);
    const mine = (await call('GET', '/agents/', admin.auth)).json<{ id: number }[]>();
    expect(mine.map((a) => a.id)).toEqual([bobsAgent]);
    // The agent came with its versions, files (still searchable) and trigger secret.
    const handedOver = await versionsOf(t, admin.auth, bobsAgent);
    expect(handedOver).toHaveLength(versions);
    expect(handedOver.map((v) => v.author)).toEqual(handedOver.map(() => 'a deleted account'));
    expect((await filesOf(t, admin.auth, bobsAgent)).map((f) => f.name)).toEqual(['notes.md']);
    expect(
      (await call('GET', `/agents/${bobsAgent}/trigger-secret`, admin.auth)).json().created_at,
    ).not.toBeNull();
    expect((await call('GET', '/agents/', bob.auth)).statusCode).toBe(401);

    await call('DELETE', `/admin/people/${carol.me.id}`, admin.auth, {
      confirmation: 'carol@example.com',
      agents_to: null,
    });
    const left = await t.db.kysely.selectFrom('agents').select('id').where('id', '=', carolsAgent).execute();
    expect(left).toEqual([]);
    expect((await call('GET', `/admin/people/${carol.me.id}`, admin.auth)).statusCode).toBe(404);
  });

  it('lists people by search and role, a page at a time, with groups, last activity and this month’s tokens', async () => {
    const admin = await signIn('admin');
    for (const name of ['ann', 'anton', 'bert']) await signIn(name);
    const ann = (await call('GET', '/admin/people?q=ANN', admin.auth)).json();
    expect(ann.map((p: { name: string }) => p.name)).toEqual(['ann']);
    expect(ann[0]).toMatchObject({ role: 'builder', groups: [], month_tokens: 0, disabled_at: null });
    expect(ann[0].last_active_at).not.toBeNull();
    expect((await call('GET', '/admin/people?q=%25', admin.auth)).json()).toEqual([]);
    const first = await call('GET', '/admin/people?role=builder&limit=2', admin.auth);
    expect(first.json().map((p: { name: string }) => p.name)).toEqual(['ann', 'anton']);
    const next = String(first.headers.link).match(/<([^>]+)>/)![1]!;
    const second = await t.app.inject({ method: 'GET', url: next, headers: admin.auth });
    expect(second.json().map((p: { name: string }) => p.name)).toEqual(['bert']);
    expect(second.headers.link).toBeUndefined();
  });
});
