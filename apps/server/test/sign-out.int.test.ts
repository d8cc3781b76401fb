import { CHAT_CSRF_HEADER, CHAT_CSRF_VALUE, CHAT_SESSION_COOKIE } from '@cadre/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { ORIGIN } from './support/chat-fixtures.ts';
import { authorize, exchangeCode, signUpAndSignIn, tokenRequest, type Browser } from './support/oidc-flow.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { bearer, signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

/**
 * A4 (sign-out ends every session) and A1 (the chat mounts authenticate before they parse), with
 * the built-in identity provider as the web app uses it.
 */
const API = '/backend/api/v1';
const password = 'a long enough password';
const csrf = { origin: ORIGIN, [CHAT_CSRF_HEADER]: CHAT_CSRF_VALUE };

/** A new agent of the caller's, by the API. */
async function newAgent(t: TestApp, auth: Record<string, string>, name: string) {
  const agent = await t.app.inject({
    method: 'POST',
    url: `${API}/agents/`,
    headers: auth,
    payload: { name: `${name}'s agent`, description: 'd', tool_ids: [] },
  });
  return agent.json<{ id: number }>().id;
}

/** Opens the agent's chat with an access token, as the web app does: the session cookie. */
async function openChat(t: TestApp, auth: Record<string, string>, agentId: number) {
  const opened = await t.app.inject({
    method: 'POST',
    url: '/chainlit/auth/header',
    headers: { ...auth, 'x-agent-id': String(agentId) },
  });
  return `${CHAT_SESSION_COOKIE}=${opened.cookies.find((c) => c.name === CHAT_SESSION_COOKIE)!.value}`;
}

/** A copilot token for the agent, minted with an access token. */
async function newCopilotToken(t: TestApp, auth: Record<string, string>, agentId: number) {
  const copilot = await t.app.inject({
    method: 'POST',
    url: `${API}/auth/chainlit-copilot-login`,
    headers: auth,
    payload: { agent_id: agentId },
  });
  return copilot.json<{ copilot_auth_token: string }>().copilot_auth_token;
}

describe(`sign-out and the chat sessions, on ${testDatabaseKind()}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A signed-in user with an agent, a chat-frame session and a copilot token for that agent. */
  async function signedInWithChat(name: string) {
    const email = `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const signedIn = await signUpAndSignIn(t.app, t.config, { name, email, password });
    const { auth, id: userId } = signedIn;
    const agentId = await newAgent(t, auth, name);
    const cookie = await openChat(t, auth, agentId);
    const copilotToken = await newCopilotToken(t, auth, agentId);
    return { signedIn, email, auth, userId, agentId, cookie, copilotToken };
  }

  const threadsWith = (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/chainlit/threads', headers });

  async function expectSignedOut(user: Awaited<ReturnType<typeof signedInWithChat>>) {
    expect((await threadsWith({ cookie: user.cookie })).statusCode).toBe(401);
    expect((await threadsWith({ authorization: `Bearer ${user.copilotToken}` })).statusCode).toBe(401);
    const rows = await t.db.kysely
      .selectFrom('chat_sessions')
      .select('revoked_at')
      .where('user_id', '=', user.userId)
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.revoked_at).not.toBeNull();
  }

  async function endProviderSession(browser: Browser, idToken: string) {
    const query = new URLSearchParams({
      id_token_hint: idToken,
      post_logout_redirect_uri: t.config.auth.logoutRedirectUri,
      client_id: t.config.auth.clientId,
    });
    const confirm = await browser.request('GET', `/idp/session/end?${query.toString()}`);
    const action = /action="([^"]+)"/.exec(confirm.body)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.body)?.[1] ?? '';
    const done = await browser.request('POST', new URL(action, ORIGIN).pathname, {
      xsrf,
      logout: 'yes',
    });
    expect(done.statusCode).toBe(303);
  }

  it('A4: signing out at the provider revokes the chat session and the copilot token; others keep theirs', async () => {
    const alice = await signedInWithChat('Alice');
    const bob = await signedInWithChat('Bob');
    expect((await threadsWith({ cookie: alice.cookie })).statusCode).toBe(200);
    expect((await threadsWith({ authorization: `Bearer ${alice.copilotToken}` })).statusCode).toBe(200);

    await endProviderSession(alice.signedIn.browser, alice.signedIn.idToken);

    await expectSignedOut(alice);
    const refreshed = await tokenRequest(t.app, t.config, {
      grant_type: 'refresh_token',
      refresh_token: alice.signedIn.refreshToken,
    });
    expect(refreshed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await threadsWith({ cookie: bob.cookie })).statusCode).toBe(200);
    expect((await threadsWith({ authorization: `Bearer ${bob.copilotToken}` })).statusCode).toBe(200);
  });

  it('A4: a chat session ends when the provider session it was opened under expires, not later', async () => {
    const alice = await signedInWithChat('Alice');
    const sub = decodeJwt(alice.auth.authorization.slice(7)).sub;
    /** When Alice's chat session that ends first ends. */
    const firstChatExpiry = async () =>
      Date.parse(
        (
          await t.db.kysely
            .selectFrom('chat_sessions')
            .select('expires_at')
            .where('user_id', '=', alice.userId)
            .orderBy('expires_at')
            .executeTakeFirstOrThrow()
        ).expires_at,
      );
    // A fresh provider session lasts 14 days: the chat session's own 8 hours end first.
    const fresh = decodeJwt(alice.auth.authorization.slice(7)).session_exp as number;
    expect(fresh * 1000 - Date.now()).toBeGreaterThan(13 * 24 * 3_600_000);
    expect((await firstChatExpiry()) - Date.now()).toBeLessThanOrEqual(8 * 3_600_000);

    // Her provider session is in its last hour, as at the end of its 14 days.
    const lastHour = Math.floor(Date.now() / 1000) + 3_600;
    const sessions = await t.db.kysely
      .selectFrom('idp_payloads')
      .select(['id', 'payload'])
      .where('kind', '=', 'Session')
      .execute();
    for (const row of sessions) {
      const payload = JSON.parse(row.payload) as { accountId?: string };
      if (payload.accountId !== sub) continue;
      await t.db.kysely
        .updateTable('idp_payloads')
        .set({
          payload: JSON.stringify({ ...payload, exp: lastHour }),
          expires_at: new Date(lastHour * 1000).toISOString(),
        })
        .where('kind', '=', 'Session')
        .where('id', '=', row.id)
        .execute();
    }
    // The web app renews its access token and opens the chat again, through another instance of a
    // cluster: that session ends with hers, and the first instance serves it until then.
    const refreshed = await tokenRequest(t.app, t.config, {
      grant_type: 'refresh_token',
      refresh_token: alice.signedIn.refreshToken,
    });
    expect(refreshed.status).toBe(200);
    const token = refreshed.body.access_token!;
    expect(decodeJwt(token).session_exp).toBe(lastHour);
    const other = await createTestApp({}, {}, { sameDatabaseAs: t });
    try {
      const cookie = await openChat(other, bearer(token), alice.agentId);
      expect(await firstChatExpiry()).toBe(lastHour * 1000);
      expect((await threadsWith({ cookie })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('A4: ending one provider session ends only the chat session opened under it', async () => {
    const alice = await signedInWithChat('Alice');
    // The same user signs in from a second browser: a provider session of its own.
    const second = await authorize(t.app, t.config, { email: alice.email, password });
    const tokens = (await exchangeCode(t.app, t.config, second)).body;
    const secondCookie = await openChat(t, bearer(tokens.access_token!), alice.agentId);
    const bob = await signedInWithChat('Bob');

    // Each access token names its provider session; each chat row keeps the one it was opened under.
    const firstSid = decodeJwt(alice.auth.authorization.slice(7)).sid;
    const secondSid = decodeJwt(tokens.access_token!).sid;
    expect(typeof firstSid).toBe('string');
    expect(secondSid).not.toEqual(firstSid);
    const sids = await t.db.kysely
      .selectFrom('chat_sessions')
      .select('idp_sid')
      .where('user_id', '=', alice.userId)
      .execute();
    expect(sids.map((r) => r.idp_sid).sort()).toEqual([firstSid, secondSid].sort());

    await endProviderSession(alice.signedIn.browser, alice.signedIn.idToken);

    expect((await threadsWith({ cookie: alice.cookie })).statusCode).toBe(401);
    expect((await threadsWith({ cookie: secondCookie })).statusCode).toBe(200);
    // Copilot tokens carry no provider session: the account's are all ended.
    expect((await threadsWith({ authorization: `Bearer ${alice.copilotToken}` })).statusCode).toBe(401);
    const refreshed = await tokenRequest(t.app, t.config, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
    });
    expect(refreshed.status).toBe(200);
    expect((await threadsWith({ cookie: bob.cookie })).statusCode).toBe(200);
    expect((await threadsWith({ authorization: `Bearer ${bob.copilotToken}` })).statusCode).toBe(200);
  });

  it("A4: the web app's chat logout with the access token ends every chat session of the user", async () => {
    const carol = await signedInWithChat('Carol');
    // Without the chat's CSRF header the logout is refused and nothing ends.
    const refused = await t.app.inject({
      method: 'POST',
      url: '/chainlit/logout',
      headers: { cookie: carol.cookie, ...carol.auth, origin: ORIGIN },
    });
    expect(refused.statusCode).toBe(403);
    expect((await threadsWith({ cookie: carol.cookie })).statusCode).toBe(200);

    const wrongToken = await t.app.inject({
      method: 'POST',
      url: '/chainlit/logout',
      headers: { ...csrf, authorization: 'Bearer not-a-token' },
    });
    expect(wrongToken.statusCode).toBe(401);

    const done = await t.app.inject({
      method: 'POST',
      url: '/chainlit/logout',
      headers: { ...csrf, ...carol.auth },
    });
    expect(done.statusCode).toBe(200);
    await expectSignedOut(carol);
  });

  it('A1: /chainlit and /demos refuse an anonymous request before reading its body', async () => {
    for (const mount of ['/chainlit', '/demos']) {
      const patch = await t.app.inject({
        method: 'PATCH',
        url: `${mount}/threads/x`,
        headers: { 'content-type': 'application/json', ...csrf },
        payload: '{}',
      });
      expect(patch.statusCode, mount).toBe(401);
      expect(patch.body, mount).not.toMatch(/name|schema|invalid/i);
      // A body far over the limit is not read either: 401, not 413.
      const big = await t.app.inject({
        method: 'POST',
        url: `${mount}/chat`,
        headers: { 'content-type': 'application/json', ...csrf },
        payload: `{"text":"${'x'.repeat(2 * 1024 * 1024)}"}`,
      });
      expect(big.statusCode, mount).toBe(401);
    }
  });
});

describe(`back-channel logout from an external issuer, on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp(issuer.env);
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  const logout = (form: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: `${API}/auth/backchannel-logout`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });
  const logoutToken = (claims: Record<string, unknown>, options: Parameters<TestIssuer['logoutToken']>[1]) =>
    issuer.logoutToken(claims, options);
  const threads = (cookie: string) =>
    t.app.inject({ method: 'GET', url: '/chainlit/threads', headers: { cookie } });

  /** An account at the issuer with an agent, and a chat session opened under each of `sids`. */
  async function account(name: string, sids: (string | undefined)[]) {
    const sub = `${name}-${crypto.randomUUID().slice(0, 8)}`;
    const { auth, id: userId } = await signInAs(t, issuer, { sub });
    const agentId = await newAgent(t, auth, name);
    const cookies: string[] = [];
    for (const sid of sids)
      cookies.push(await openChat(t, bearer(await issuer.token({ sub, sid })), agentId));
    const copilotAuth = bearer(await newCopilotToken(t, auth, agentId));
    return { sub, userId, agentId, cookies, copilotAuth };
  }
  const statuses = async (cookies: string[]) =>
    Promise.all(cookies.map(async (cookie) => (await threads(cookie)).statusCode));
  const copilotStatus = async (copilotAuth: Record<string, string>) =>
    (await t.app.inject({ method: 'GET', url: '/chainlit/threads', headers: copilotAuth })).statusCode;

  it('A4: an access token naming a provider session that has expired opens no chat session', async () => {
    const gina = await account('gina', []);
    const open = async (sessionExp: number) =>
      t.app.inject({
        method: 'POST',
        url: '/chainlit/auth/header',
        headers: {
          ...bearer(await issuer.token({ sub: gina.sub, sid: 'gina-s1', session_exp: sessionExp })),
          'x-agent-id': String(gina.agentId),
        },
      });
    const now = Math.floor(Date.now() / 1000);
    const expired = await open(now - 1);
    expect(expired.statusCode).toBe(401);
    expect(expired.cookies.find((c) => c.name === CHAT_SESSION_COOKIE)).toBeUndefined();
    expect((await open(now + 60)).statusCode).toBe(200);
  });

  it('A4: a logout token naming a session ends exactly the chat session opened under it', async () => {
    const audience = t.config.auth.clientId;
    // The third chat session was opened with a token naming no session: any of Alice's ending ends it.
    const alice = await account('alice', ['alice-s1', 'alice-s2', undefined]);
    const bob = await account('bob', ['bob-s1']);

    const done = await logout({
      logout_token: await logoutToken({ sub: alice.sub, sid: 'alice-s1' }, { audience }),
    });
    expect(done.statusCode).toBe(200);
    expect(done.headers['set-cookie']).toBeUndefined();
    expect(done.headers['cache-control']).toBe('no-store');
    expect(await statuses(alice.cookies)).toEqual([401, 200, 401]);
    expect(await copilotStatus(alice.copilotAuth)).toBe(401);
    expect(await statuses(bob.cookies)).toEqual([200]);
    expect(await copilotStatus(bob.copilotAuth)).toBe(200);

    // A token with the sid alone (no sub) ends that session too.
    const bySid = await logout({ logout_token: await logoutToken({ sid: 'alice-s2' }, { audience }) });
    expect(bySid.statusCode).toBe(200);
    expect(await statuses(alice.cookies)).toEqual([401, 401, 401]);
    expect(await statuses(bob.cookies)).toEqual([200]);
  });

  it("A4: a logout token naming only the account ends all of that account's chat sessions", async () => {
    const audience = t.config.auth.clientId;
    // One session opened with a token without sid: only an account-wide logout ends it.
    const carol = await account('carol', ['carol-s1', 'carol-s2', undefined]);
    const bob = await account('bob', ['bob-s1']);

    const done = await logout({ logout_token: await logoutToken({ sub: carol.sub }, { audience }) });
    expect(done.statusCode).toBe(200);
    expect(await statuses(carol.cookies)).toEqual([401, 401, 401]);
    expect(await copilotStatus(carol.copilotAuth)).toBe(401);
    expect(await statuses(bob.cookies)).toEqual([200]);
    expect(await copilotStatus(bob.copilotAuth)).toBe(200);
  });

  it('A4: an invalid, replayed or foreign logout token is refused with 400 and ends nothing', async () => {
    const audience = t.config.auth.clientId;
    const erin = await account('erin', ['erin-s1']);
    const claims = { sub: erin.sub, sid: 'erin-s1' };

    // Accepted once; its replay must not end a session opened under the same sid since.
    const first = await logoutToken(claims, { audience });
    expect((await logout({ logout_token: first })).statusCode).toBe(200);
    expect(await statuses(erin.cookies)).toEqual([401]);
    const cookie = await openChat(t, bearer(await issuer.token(claims)), erin.agentId);
    const bob = await account('bob', ['bob-s1']);
    const revocations = () =>
      Promise.all([
        t.db.kysely
          .selectFrom('chat_sessions')
          .select(['id_hash', 'revoked_at'])
          .orderBy('id_hash')
          .execute(),
        t.db.kysely.selectFrom('chat_revocations').selectAll().orderBy('user_id').execute(),
      ]);
    const before = await revocations();

    const refused: [string, string | undefined][] = [
      ['a replayed jti', first],
      ['another audience', await logoutToken(claims, { audience: 'someone-else' })],
      ['another issuer', await logoutToken(claims, { audience, issuer: 'https://issuer.example/' })],
      [
        'a bad signature',
        await logoutToken(claims, { audience, foreignKey: true, kid: issuer.publicJwk.kid! }),
      ],
      ['no events', await logoutToken({ ...claims, events: undefined }, { audience })],
      ['another event', await logoutToken({ ...claims, events: { 'urn:example:other': {} } }, { audience })],
      ['a nonce', await logoutToken({ ...claims, nonce: 'n' }, { audience })],
      ['an expiry passed', await logoutToken(claims, { audience, issuedAt: -180, expiresIn: -120 })],
      ['an old iat and no exp', await logoutToken(claims, { audience, issuedAt: -3600, expiresIn: null })],
      ['an iat in the future', await logoutToken(claims, { audience, issuedAt: 600, expiresIn: 720 })],
      ['no jti', await logoutToken({ ...claims, jti: undefined }, { audience })],
      ['neither sid nor sub', await logoutToken({ sub: undefined, sid: undefined }, { audience })],
      ['an access token', await issuer.token({ ...claims, jti: 'at-1' }, { audience })],
      ['not a JWT', 'not-a-token'],
      ['no logout_token', undefined],
    ];
    for (const [why, token] of refused) {
      const res = await logout(token === undefined ? { other: 'x' } : { logout_token: token });
      expect(res.statusCode, why).toBe(400);
      expect(res.json(), why).toMatchObject({ error: 'invalid_request' });
      expect(res.headers['set-cookie'], why).toBeUndefined();
    }
    // Bodies that are not a form at all are the issuer's bad request too, never a 5xx.
    for (const [contentType, payload] of [
      ['application/json', '[1]'],
      ['application/json', 'abc'],
      ['application/json', ''],
      ['text/plain', 'logout_token=x'],
      ['application/x-www-form-urlencoded', '%%%'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/auth/backchannel-logout`,
        headers: { 'content-type': contentType! },
        payload,
      });
      expect(res.statusCode, `${contentType} ${payload}`).toBe(400);
    }

    expect(await revocations()).toEqual(before);
    expect((await threads(cookie)).statusCode).toBe(200);
    expect(await statuses(bob.cookies)).toEqual([200]);
  });

  it("A4: a logout that fails here is not spent: the issuer's retry of the same token ends the session", async () => {
    const audience = t.config.auth.clientId;
    const gus = await account('gus', ['gus-s1']);
    const token = await logoutToken({ sub: gus.sub, sid: 'gus-s1' }, { audience });
    // A fault while the sessions are being ended: the copilot revocations' table is briefly gone.
    const schema = t.db.kysely.schema;
    await schema.alterTable('chat_revocations').renameTo('chat_revocations_away').execute();
    let failed;
    try {
      failed = await logout({ logout_token: token });
    } finally {
      await schema.alterTable('chat_revocations_away').renameTo('chat_revocations').execute();
    }
    expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    expect(await statuses(gus.cookies)).toEqual([200]);
    // The issuer sends the token again (Back-Channel Logout 1.0, 2.8: a failed logout is retried).
    expect((await logout({ logout_token: token })).statusCode).toBe(200);
    expect(await statuses(gus.cookies)).toEqual([401]);
    expect(await copilotStatus(gus.copilotAuth)).toBe(401);
  });

  it('A4: a logout token received by one instance ends the session on every instance; its replay anywhere is refused', async () => {
    const audience = t.config.auth.clientId;
    const other = await createTestApp({}, {}, { sameDatabaseAs: t });
    const post = (on: TestApp, token: string) =>
      on.app.inject({
        method: 'POST',
        url: `${API}/auth/backchannel-logout`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ logout_token: token }).toString(),
      });
    const statusOn = async (on: TestApp, cookie: string) =>
      (await on.app.inject({ method: 'GET', url: '/chainlit/threads', headers: { cookie } })).statusCode;
    try {
      const frank = await account('frank', ['frank-s1', 'frank-s2']);
      const [ended, kept] = frank.cookies as [string, string];
      for (const on of [t, other])
        expect([await statusOn(on, ended), await statusOn(on, kept)]).toEqual([200, 200]);

      // The issuer's token, signed with its key, received by the other instance only.
      const token = await logoutToken({ sub: frank.sub, sid: 'frank-s1' }, { audience });
      expect((await post(other, token)).statusCode).toBe(200);
      for (const on of [t, other])
        expect([await statusOn(on, ended), await statusOn(on, kept)]).toEqual([401, 200]);
      for (const on of [t, other]) {
        const replay = await post(on, token);
        expect(replay.statusCode).toBe(400);
        expect(replay.json()).toMatchObject({
          error: 'invalid_request',
          error_description: 'logout_token was already used',
        });
      }

      // One token delivered to both instances at once (an issuer retrying, or an attacker racing
      // it) is accepted exactly once.
      const raced = await logoutToken({ sub: frank.sub, sid: 'frank-s2' }, { audience });
      const answers = await Promise.all([post(t, raced), post(other, raced)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
      for (const on of [t, other]) expect(await statusOn(on, kept)).toBe(401);
    } finally {
      await other.close();
    }
  });
});
