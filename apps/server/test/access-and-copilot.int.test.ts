import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_CODE_SETTING } from '../src/modules/access-code/service.ts';
import {
  copilotTokenKey,
  copilotTokenVerifier,
  issueCopilotToken,
  verifyCopilotToken,
} from '../src/modules/auth/copilot-token.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { admit, bearer, signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const SIGNIN = '/backend/api/v1/public/beta-user-signin';
const COPILOT = '/backend/api/v1/auth/chainlit-copilot-login';

describe(`access code on ${testDatabaseKind()}`, () => {
  let t: TestApp;
  afterEach(async () => {
    await t?.close();
  });

  const signIn = (password: unknown, ip = '203.0.113.7') =>
    t.app.inject({ method: 'POST', url: SIGNIN, payload: { password } as object, remoteAddress: ip });

  it('accepts any configured code and refuses others, auditing both without the code', async () => {
    t = await createTestApp({ BETA_ACCESS_CODES: ' alpha-123 , beta-456 ' });
    expect((await signIn('alpha-123')).json()).toEqual({ success: true });
    expect((await signIn('beta-456')).statusCode).toBe(200);
    const wrong = await signIn('alpha-12');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Incorrect password', code: 'unauthorized' });
    expect((await signIn('')).statusCode).toBe(422);
    const events = await t.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'user_id', 'detail'])
      .orderBy('id')
      .execute();
    expect(events.map((e) => e.action)).toEqual([
      'access_code.success',
      'access_code.success',
      'access_code.failure',
    ]);
    expect(JSON.stringify(events)).not.toMatch(/alpha|beta-456/);
    expect(fs.existsSync(path.join(t.dataDir, 'access-code'))).toBe(false);
  });

  it('allows 10 tries a minute per client address, then answers 429 with Retry-After', async () => {
    t = await createTestApp({ BETA_ACCESS_CODES: 'right-code' });
    // The window is a fixed minute, so a run that crosses a minute boundary gets up to 20 tries.
    let refused = 0;
    let limited = await signIn('wrong-0');
    while (limited.statusCode === 401 && refused < 25) {
      refused += 1;
      limited = await signIn(`wrong-${refused}`);
    }
    expect(refused).toBeGreaterThanOrEqual(10);
    expect(refused).toBeLessThanOrEqual(20);
    // Once limited, even the right code is refused until the window ends.
    expect((await signIn('right-code')).statusCode).toBe(429);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ detail: 'Too many attempts; try again later', code: 'rate_limited' });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another address is counted apart.
    expect((await signIn('right-code', '198.51.100.9')).statusCode).toBe(200);
  });

  it('generates a code when none is configured, keeps it sealed in the database, and accepts only it', async () => {
    t = await createTestApp();
    const code = await t.app.generatedAccessCode();
    expect(code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    // Sealed: the stored value is not the code, and nothing is written to the data folder.
    const stored = await t.db.kysely
      .selectFrom('settings')
      .select('value')
      .where('key', '=', GENERATED_CODE_SETTING)
      .executeTakeFirstOrThrow();
    expect(stored.value).not.toContain(code!);
    expect(fs.existsSync(path.join(t.dataDir, 'access-code'))).toBe(false);
    expect((await signIn(code)).statusCode).toBe(200);
    expect((await signIn(code!.toLowerCase())).statusCode).toBe(401);
    // A second instance on the same database (same vault key) accepts the same code.
    const second = await createTestApp({}, {}, { sameDatabaseAs: t });
    try {
      expect(await second.app.generatedAccessCode()).toBe(code);
      const res = await second.app.inject({ method: 'POST', url: SIGNIN, payload: { password: code } });
      expect(res.statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('keeps the code an earlier version generated into the data folder', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-legacy-'));
    fs.writeFileSync(path.join(dataDir, 'access-code'), 'LEGA-CYCO-DE23-4567\n');
    t = await createTestApp({ DATA_DIR: dataDir });
    expect(await t.app.generatedAccessCode()).toBe('LEGA-CYCO-DE23-4567');
    expect((await signIn('LEGA-CYCO-DE23-4567')).statusCode).toBe(200);
  });

  it('generates nothing when codes are configured', async () => {
    t = await createTestApp({ BETA_ACCESS_CODES: 'x' });
    expect(await t.app.generatedAccessCode()).toBeUndefined();
    const row = await t.db.kysely
      .selectFrom('settings')
      .select('value')
      .where('key', '=', GENERATED_CODE_SETTING)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });
});

describe(`copilot token on ${testDatabaseKind()}`, () => {
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

  /** An agent the caller creates through the API. */
  const newAgent = async (headers: Record<string, string>) =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/backend/api/v1/agents/',
        headers,
        payload: { name: 'a', description: 'd' },
      })
    ).json() as { id: number };

  it('returns a 15-minute HS256 token bound to the user that only the chat audience accepts', async () => {
    const { auth, id } = await signInAs(t, issuer, { sub: 'alice' });
    const agent = await newAgent(auth);
    const res = await t.app.inject({
      method: 'POST',
      url: COPILOT,
      headers: auth,
      payload: { agent_id: agent.id },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const token = res.json().copilot_auth_token as string;
    const claims = decodeJwt(token);
    expect(claims.sub).toBe(String(id));
    expect(claims.aud).toBe('cadre-chat');
    expect(claims.exp! - claims.iat!).toBe(900);
    expect(await verifyCopilotToken(t.config, token)).toEqual({
      userId: id,
      agentId: agent.id,
      issuedAt: expect.any(Number),
    });
    // The token is no access token: the API refuses it.
    expect(
      (await t.app.inject({ method: 'GET', url: '/backend/api/v1/agents/', headers: bearer(token) }))
        .statusCode,
    ).toBe(401);
    expect(t.logs.join('\n')).not.toContain(token);
  });

  it('refuses a token with another audience, an expired one and one signed with another key', async () => {
    const key = copilotTokenKey(t.config);
    const make = (aud: string, exp: number, k: Uint8Array = key) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('urn:cadre:api')
        .setAudience(aud)
        .setSubject('1')
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(k);
    const now = Math.floor(Date.now() / 1000);
    await expect(verifyCopilotToken(t.config, await make('cadre-api', now + 60))).rejects.toThrow();
    await expect(verifyCopilotToken(t.config, await make('cadre-chat', now - 60))).rejects.toThrow();
    await expect(
      verifyCopilotToken(t.config, await make('cadre-chat', now + 60, new Uint8Array(32))),
    ).rejects.toThrow();
    expect(await verifyCopilotToken(t.config, await make('cadre-chat', now + 60))).toEqual({
      userId: 1,
      issuedAt: expect.any(Number),
    });
  });

  it('answers 401 without a token', async () => {
    const res = await t.app.inject({ method: 'POST', url: COPILOT });
    expect(res.statusCode).toBe(401);
  });

  it("binds the token to one of the caller's agents on request, and refuses another user's agent", async () => {
    const alice = bearer(await issuer.token({ sub: 'alice' }));
    const bob = bearer(await issuer.token({ sub: 'bob' }));
    await admit(t, alice);
    await admit(t, bob);
    const agent = await newAgent(alice);
    const res = await t.app.inject({
      method: 'POST',
      url: COPILOT,
      headers: alice,
      payload: { agent_id: agent.id },
    });
    expect(res.statusCode).toBe(200);
    const token = res.json().copilot_auth_token as string;
    const verified = await verifyCopilotToken(t.config, token);
    expect(verified.agentId).toBe(agent.id);
    expect(await copilotTokenVerifier(t.config)(token)).toEqual(verified);
    // A token without an agent is not enough for the chat module, and the route mints none.
    const plain = await issueCopilotToken(t.config, verified.userId);
    expect(await copilotTokenVerifier(t.config)(plain)).toBeNull();
    for (const payload of [undefined, {}]) {
      const missing = await t.app.inject({ method: 'POST', url: COPILOT, headers: alice, payload });
      expect(missing.statusCode).toBe(422);
      expect(JSON.stringify(missing.json().detail)).toContain('agent_id');
    }
    expect(await copilotTokenVerifier(t.config)('garbage')).toBeNull();

    const stolen = await t.app.inject({
      method: 'POST',
      url: COPILOT,
      headers: bob,
      payload: { agent_id: agent.id },
    });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json()).toEqual({ detail: 'This agent does not exist or is not yours', code: 'not_found' });
    const bad = await t.app.inject({
      method: 'POST',
      url: COPILOT,
      headers: bob,
      payload: { agent_id: 'x', extra: 1 },
    });
    expect(bad.statusCode).toBe(422);
  });

  it('verifies API access tokens for other modules through app.apiTokens', async () => {
    const token = await issuer.token({ sub: 'frank' });
    // Not before the user passed the beta gate.
    expect(await t.app.apiTokens.userForToken(token)).toBeNull();
    await admit(t, bearer(token));
    const user = await t.app.apiTokens.userForToken(token);
    expect(user).toMatchObject({ issuer: issuer.url, subject: 'frank' });
    expect(
      await t.app.apiTokens.userForToken(await issuer.token({ sub: 'frank' }, { expiresIn: -100 })),
    ).toBeNull();
    expect(await t.app.apiTokens.userForToken('nope')).toBeNull();
  });
});
