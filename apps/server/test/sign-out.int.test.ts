import { CHAT_CSRF_HEADER, CHAT_CSRF_VALUE, CHAT_SESSION_COOKIE } from '@cadre/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN } from './support/chat-fixtures.ts';
import { signUpAndSignIn, tokenRequest, type Browser } from './support/oidc-flow.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';

/**
 * A4 (sign-out ends every session) and A1 (the chat mounts authenticate before they parse), with
 * the built-in identity provider as the web app uses it.
 */
const API = '/backend/api/v1';
const password = 'a long enough password';
const csrf = { origin: ORIGIN, [CHAT_CSRF_HEADER]: CHAT_CSRF_VALUE };

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
    const agent = await t.app.inject({
      method: 'POST',
      url: `${API}/agents/`,
      headers: auth,
      payload: { name: `${name}'s agent`, description: 'd', tool_ids: [] },
    });
    const agentId = agent.json<{ id: number }>().id;
    const opened = await t.app.inject({
      method: 'POST',
      url: '/chainlit/auth/header',
      headers: { ...auth, 'x-agent-id': String(agentId) },
    });
    const cookie = `${CHAT_SESSION_COOKIE}=${opened.cookies.find((c) => c.name === CHAT_SESSION_COOKIE)!.value}`;
    const copilot = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/chainlit-copilot-login`,
      headers: auth,
      payload: { agent_id: agentId },
    });
    const copilotToken = copilot.json<{ copilot_auth_token: string }>().copilot_auth_token;
    return { signedIn, auth, userId, agentId, cookie, copilotToken };
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
