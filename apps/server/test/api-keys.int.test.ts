import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_CACHE_MS } from '../src/modules/api-keys/service.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { bearer, signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const API = '/backend/api/v1';
const KEYS = `${API}/api-keys`;

describe(`API keys on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let alice: { authorization: string };
  let aliceId: number;
  let agentA: number;
  let agentB: number;
  /** How far the keys' clock runs ahead of real time: tests move it instead of waiting. */
  let aheadMs = 0;

  const createKey = async (body: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'POST', url: KEYS, headers: alice, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; key: string; prefix: string; last_used_at: string | null };
  };
  const call = (key: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(key), payload });
  const newAgent = async (name: string) =>
    (
      await t.app.inject({
        method: 'POST',
        url: `${API}/agents/`,
        headers: alice,
        payload: { name, description: 'd' },
      })
    ).json().id as number;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp(issuer.env, { apiKeys: { now: () => Date.now() + aheadMs } });
    ({ auth: alice, id: aliceId } = await signInAs(t, issuer, { sub: 'alice' }));
    agentA = await newAgent('A');
    agentB = await newAgent('B');
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });
  afterEach(() => {
    aheadMs = 0;
  });

  it('shows a key once, stores only its hash, lists and revokes it at once, auditing both', async () => {
    const created = await createKey({ name: 'ci', scopes: ['agents:read'] });
    expect(created.key).toMatch(/^cadre_[A-Za-z0-9_-]{43}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(created).toMatchObject({ name: 'ci', scopes: ['agents:read'], agent_ids: null, expires_at: null });

    const list = await t.app.inject({ method: 'GET', url: KEYS, headers: alice });
    expect(list.body).not.toContain(created.key);
    expect(list.json()).toEqual([expect.objectContaining({ id: created.id, prefix: created.prefix })]);
    const rows = await t.db.kysely.selectFrom('api_keys').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(created.key);
    expect(JSON.stringify(rows)).not.toContain(created.key.slice(created.prefix.length));
    expect(rows[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(t.logs.join('\n')).not.toContain(created.key);

    expect((await call(created.key, 'GET', `${API}/agents/`)).statusCode).toBe(200);
    const revoked = await t.app.inject({ method: 'DELETE', url: `${KEYS}/${created.id}`, headers: alice });
    expect(revoked.statusCode).toBe(204);
    const after = await call(created.key, 'GET', `${API}/agents/`);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ detail: 'Not authenticated', code: 'unauthorized' });
    expect((await t.app.inject({ method: 'GET', url: KEYS, headers: alice })).json()).toEqual([]);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${KEYS}/${created.id}`, headers: alice })).statusCode,
    ).toBe(404);

    const events = await t.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'object_id', 'detail'])
      .where('action', 'like', 'api_key.%')
      .orderBy('id')
      .execute();
    expect(events.map((e) => [e.action, e.object_id])).toEqual([
      ['api_key.create', String(created.id)],
      ['api_key.revoke', String(created.id)],
    ]);
    expect(JSON.stringify(events)).not.toContain(created.key);
  });

  it('refuses an unknown key, a malformed one and bad input naming the field', async () => {
    expect((await call('cadre_nope', 'GET', `${API}/agents/`)).statusCode).toBe(401);
    for (const [body, field] of [
      [{ name: '', scopes: ['chat'] }, 'name'],
      [{ name: 'x', scopes: [] }, 'scopes'],
      [{ name: 'x', scopes: ['admin'] }, 'scopes'],
      [{ name: 'x', scopes: ['chat'], expires_at: 'soon' }, 'expires_at'],
      [{ name: 'x', scopes: ['chat'], expires_at: '2001-01-01T00:00:00Z' }, 'expires_at'],
      [{ name: 'x', scopes: ['chat'], agent_ids: [999_999] }, 'agent_ids'],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: KEYS, headers: alice, payload: body });
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(res.json().detail)).toContain(field);
    }
  });

  it('limits a key to its agents (another agent is absent) and to its scopes (403 naming the scope)', async () => {
    const { key } = await createKey({ name: 'read A', scopes: ['agents:read'], agent_ids: [agentA] });
    const list = await call(key, 'GET', `${API}/agents/`);
    expect(list.statusCode).toBe(200);
    expect(list.json().map((a: { id: number }) => a.id)).toEqual([agentA]);
    expect((await call(key, 'GET', `${API}/agents/${agentA}/agent`)).statusCode).toBe(200);
    const other = await call(key, 'GET', `${API}/agents/${agentB}/agent`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ detail: 'Agent not found', code: 'not_found' });

    const mint = await call(key, 'POST', `${API}/auth/chainlit-copilot-login`, { agent_id: agentA });
    expect(mint.statusCode).toBe(403);
    expect(mint.json()).toEqual({ detail: 'This API key lacks the scope copilot:mint', code: 'forbidden' });
    for (const [method, url] of [
      ['POST', `${API}/agents/`],
      ['DELETE', `${API}/agents/${agentA}`],
      ['GET', KEYS],
      ['POST', KEYS],
      ['GET', `${API}/users/me/export`],
    ] as const) {
      const res = await call(key, method, url, method === 'POST' ? {} : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().detail).toContain('sign-in token');
    }

    // The whole list for a key not limited to agents.
    const all = await createKey({ name: 'read all', scopes: ['agents:read'] });
    const ids = (await call(all.key, 'GET', `${API}/agents/`)).json().map((a: { id: number }) => a.id);
    expect(ids.sort()).toEqual([agentA, agentB].sort());
  });

  it('mints copilot tokens and signs in to the chat only for the allowed agents', async () => {
    const minter = await createKey({ name: 'host', scopes: ['copilot:mint'], agent_ids: [agentA] });
    const visitor = { id: 'visitor-1', display_name: 'Visitor' };
    const ok = await call(minter.key, 'POST', `${API}/auth/chainlit-copilot-login`, {
      agent_id: agentA,
      end_user: visitor,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().copilot_auth_token).toEqual(expect.any(String));
    const other = await call(minter.key, 'POST', `${API}/auth/chainlit-copilot-login`, {
      agent_id: agentB,
      end_user: visitor,
    });
    expect(other.statusCode).toBe(404);
    const missing = await call(minter.key, 'POST', `${API}/auth/chainlit-copilot-login`, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().detail).toEqual([expect.objectContaining({ loc: ['body', 'agent_id'] })]);

    const chatSignIn = (key: string, agentId: number) =>
      t.app.inject({
        method: 'POST',
        url: '/chainlit/auth/header',
        headers: { ...bearer(key), 'x-agent-id': String(agentId) },
      });
    const chat = await createKey({ name: 'chat', scopes: ['chat'], agent_ids: [agentA] });
    expect((await chatSignIn(chat.key, agentA)).statusCode).toBe(200);
    expect((await chatSignIn(chat.key, agentB)).statusCode).toBe(401);
    // Without the chat scope a key does not sign in to the chat.
    expect((await chatSignIn(minter.key, agentA)).statusCode).toBe(401);
  });

  it('stops accepting an expired key at once', async () => {
    const expiresAt = Date.now() + 60 * 60_000;
    const { key } = await createKey({
      name: 'short',
      scopes: ['agents:read'],
      expires_at: new Date(expiresAt).toISOString(),
    });
    expect((await call(key, 'GET', `${API}/agents/`)).statusCode).toBe(200);
    aheadMs = expiresAt - Date.now() + 1;
    expect((await call(key, 'GET', `${API}/agents/`)).statusCode).toBe(401);
  });

  it('records the last use, writing it at most once a minute', async () => {
    const { id, key, last_used_at } = await createKey({ name: 'used', scopes: ['agents:read'] });
    expect(last_used_at).toBeNull();
    const lastUsed = async () =>
      (
        await t.db.kysely
          .selectFrom('api_keys')
          .select('last_used_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).last_used_at;
    await call(key, 'GET', `${API}/agents/`);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    const listed = (await t.app.inject({ method: 'GET', url: KEYS, headers: alice })).json();
    expect(listed.find((k: { id: number }) => k.id === id).last_used_at).toBe(first);
    // Past the 5-second cache but within the minute: read again, not written again.
    aheadMs = 6_000;
    for (let i = 0; i < 3; i++) expect((await call(key, 'GET', `${API}/agents/`)).statusCode).toBe(200);
    expect(await lastUsed()).toBe(first);
    aheadMs = 67_000;
    await call(key, 'GET', `${API}/agents/`);
    expect(Date.parse((await lastUsed())!)).toBeGreaterThan(Date.parse(first!) + 60_000);
  });

  it("exports a user's keys without their hashes and deletes them with the user", async () => {
    const { auth, id } = await signInAs(t, issuer, { sub: 'carol' });
    const res = await t.app.inject({
      method: 'POST',
      url: KEYS,
      headers: auth,
      payload: { name: 'carol key', scopes: ['chat'] },
    });
    const { key } = res.json() as { key: string };
    const hash = (
      await t.db.kysely
        .selectFrom('api_keys')
        .select('hash')
        .where('user_id', '=', id)
        .executeTakeFirstOrThrow()
    ).hash;
    const exported = await t.app.inject({ method: 'GET', url: `${API}/users/me/export`, headers: auth });
    expect(exported.json().api_keys).toEqual([
      expect.objectContaining({ name: 'carol key', scopes: ['chat'], agent_ids: null }),
    ]);
    expect(exported.body).not.toContain(hash);
    expect(exported.body).not.toContain(key);

    expect((await t.app.inject({ method: 'DELETE', url: `${API}/users/me`, headers: auth })).statusCode).toBe(
      204,
    );
    expect(await t.db.kysely.selectFrom('api_keys').select('id').where('user_id', '=', id).execute()).toEqual(
      [],
    );
    expect(aliceId).not.toBe(id);
  });

  it('a key made on one instance works on another; revoked on the first, the other refuses it at once', async () => {
    // SQLite serves one instance: there the "other" is the same one, and the same code runs.
    const other = testDatabaseKind() === 'postgres' ? await createTestApp({}, {}, { sameDatabaseAs: t }) : t;
    try {
      const created = await createKey({ name: 'two instances', scopes: ['agents:read'] });
      const onOther = () =>
        other.app.inject({ method: 'GET', url: `${API}/agents/`, headers: bearer(created.key) });
      // The other instance verified the key and now holds it in its cache.
      expect((await onOther()).statusCode).toBe(200);
      const revokedAt = Date.now();
      const revoked = await t.app.inject({ method: 'DELETE', url: `${KEYS}/${created.id}`, headers: alice });
      expect(revoked.statusCode).toBe(204);
      await expect
        .poll(async () => (await onOther()).statusCode, { interval: 50, timeout: API_KEY_CACHE_MS })
        .toBe(401);
      // The revocation travelled as a signal, well before the other instance's cache would expire.
      expect(Date.now() - revokedAt).toBeLessThan(API_KEY_CACHE_MS);
    } finally {
      if (other !== t) await other.close();
    }
  });
  it('deleting the account ends its keys on every instance at once, as a revocation does', async () => {
    const other = testDatabaseKind() === 'postgres' ? await createTestApp({}, {}, { sameDatabaseAs: t }) : t;
    try {
      const { auth } = await signInAs(t, issuer, { sub: 'dave' });
      const created = await t.app.inject({
        method: 'POST',
        url: KEYS,
        headers: auth,
        payload: { name: 'dave key', scopes: ['agents:read'] },
      });
      const { key } = created.json() as { key: string };
      const onOther = () => other.app.inject({ method: 'GET', url: `${API}/agents/`, headers: bearer(key) });
      // Both instances verified the key and hold it in their caches.
      expect((await onOther()).statusCode).toBe(200);
      expect((await call(key, 'GET', `${API}/agents/`)).statusCode).toBe(200);
      const deletedAt = Date.now();
      expect(
        (await t.app.inject({ method: 'DELETE', url: `${API}/users/me`, headers: auth })).statusCode,
      ).toBe(204);
      await expect
        .poll(async () => (await onOther()).statusCode, { interval: 50, timeout: API_KEY_CACHE_MS })
        .toBe(401);
      expect((await call(key, 'GET', `${API}/agents/`)).statusCode).toBe(401);
      // The signal, not the caches' expiry, ended it.
      expect(Date.now() - deletedAt).toBeLessThan(API_KEY_CACHE_MS);
    } finally {
      if (other !== t) await other.close();
    }
  });
});
