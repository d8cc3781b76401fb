import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_ADMITTED_DETAIL } from '../src/http/auth.ts';
import { ACCESS_PROOF_COOKIE, createAccessGate } from '../src/modules/access-code/index.ts';
import { createAuditLog } from '../src/modules/audit/index.ts';
import { authorizeUrl, Browser, pkcePair, uidFrom } from './support/oidc-flow.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import {
  accessCodeOf,
  bearer,
  freshAddress,
  passBetaGate,
  startTestIssuer,
  type TestIssuer,
} from './support/test-issuer.ts';

const GATE = '/backend/api/v1/public/beta-user-signin';
const AGENTS = '/backend/api/v1/agents/';
const CHECK = '/backend/api/v1/users/check-user';

/** The beta access-code gate, enforced by the server (issue 15, item 6). */
describe(`the beta gate on the server, with an external issuer, on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp({ ...issuer.env, BETA_ACCESS_CODES: 'first-code,second-code' });
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  const enter = (password: string) =>
    t.app.inject({ method: 'POST', url: GATE, remoteAddress: freshAddress(), payload: { password } });

  it('A3: beta-user-signin keeps its body and sets a signed, short-lived, httpOnly SameSite=Lax proof', async () => {
    const ok = await enter('second-code');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true });
    expect(String(ok.headers['set-cookie'])).toMatch(
      new RegExp(
        `^${ACCESS_PROOF_COOKIE}=v1\\.\\d+\\.[\\w+/]+; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax$`,
      ),
    );
    const wrong = await enter('not-a-code');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Incorrect password', code: 'unauthorized' });
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('A3: the API refuses a signed-in user who never passed the gate with 403, and admits one who did', async () => {
    const newcomer = bearer(await issuer.token({ sub: 'newcomer' }));
    for (const url of [AGENTS, CHECK]) {
      const res = await t.app.inject({ method: url === CHECK ? 'POST' : 'GET', url, headers: newcomer });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ detail: NOT_ADMITTED_DETAIL, code: 'forbidden' });
    }
    // The chat frame does not take the token either.
    const chat = await t.app.inject({ method: 'POST', url: '/chainlit/auth/header', headers: newcomer });
    expect(chat.statusCode).toBe(401);

    // Proofs that are not proofs: another name, a changed signature or expiry, one that expired.
    const proof = await passBetaGate(t.app, t.config);
    const [value, signature] = [
      proof.slice(0, proof.lastIndexOf('.')),
      proof.slice(proof.lastIndexOf('.') + 1),
    ];
    const expiredGate = await createAccessGate({
      config: t.config,
      db: t.db,
      vault: t.vault,
      audit: createAuditLog(t.db),
      now: () => Date.now() - 2 * 3_600_000,
    });
    const expired = String(await expiredGate.redeem('first-code', freshAddress())).split(';')[0]!;
    const forged = [
      proof.replace(`${ACCESS_PROOF_COOKIE}=`, 'other_cookie='),
      `${value}.${signature.slice(1)}A`,
      proof.replace(/v1\.(\d+)/, (_m, expiry: string) => `v1.${Number(expiry) + 3600}`),
      expired,
    ];
    for (const cookie of forged) {
      const res = await t.app.inject({ method: 'POST', url: CHECK, headers: { ...newcomer, cookie } });
      expect(res.statusCode, cookie).toBe(403);
    }
    const user = () =>
      t.db.kysely
        .selectFrom('users')
        .select(['id', 'admitted_at'])
        .where('subject', '=', 'newcomer')
        .executeTakeFirstOrThrow();
    expect((await user()).admitted_at).toBeNull();

    // The browser that entered the code: check-user admits, and the account stays admitted.
    const admitted = await t.app.inject({
      method: 'POST',
      url: CHECK,
      headers: { ...newcomer, cookie: proof },
    });
    expect(admitted.statusCode).toBe(200);
    expect((await user()).admitted_at).not.toBeNull();
    expect((await t.app.inject({ method: 'GET', url: AGENTS, headers: newcomer })).statusCode).toBe(200);
    expect(await t.app.apiTokens.userForToken(newcomer.authorization.slice(7))).toMatchObject({
      subject: 'newcomer',
    });
    const events = await t.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'user_id'])
      .where('action', '=', 'user.admit')
      .execute();
    expect(events).toEqual([{ action: 'user.admit', user_id: (await user()).id }]);
  });
});

describe(`the beta gate at the built-in provider's sign-up, on ${testDatabaseKind()}`, () => {
  let t: TestApp;
  let host: string;
  beforeAll(async () => {
    t = await createTestApp();
    host = new URL(t.config.publicUrl).host;
  });
  afterAll(async () => {
    await t?.close();
  });

  const signUpPage = async (browser: Browser) => {
    const start = await browser.request(
      'GET',
      authorizeUrl(t.config, { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }),
    );
    return `/idp/interaction/${uidFrom(String(start.headers.location))}/signup`;
  };
  const account = { name: 'Gina', email: 'gina@example.com', password: 'a long enough password' };
  const accounts = () => t.db.kysely.selectFrom('idp_accounts').select(['subject', 'email']).execute();

  it('A3: asks a browser without the proof for the code, refuses a wrong one, and admits the new account', async () => {
    const browser = new Browser(t.app, host, freshAddress());
    const page = await signUpPage(browser);
    expect((await browser.request('GET', page)).body).toContain(
      '<label for="access_code">Access code</label>',
    );

    const missing = await browser.request('POST', page, account);
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('Enter the access code you were given.');
    const wrong = await browser.request('POST', page, { ...account, access_code: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('This access code is not correct.');
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(await accounts()).toEqual([]);

    const right = await browser.request('POST', page, {
      ...account,
      access_code: await accessCodeOf(t.app, t.config),
    });
    expect(right.statusCode).toBe(303);
    expect(String(right.headers['set-cookie'])).toContain(`${ACCESS_PROOF_COOKIE}=v1.`);
    const [created] = await accounts();
    expect(created).toMatchObject({ email: 'gina@example.com' });
    const user = await t.db.kysely
      .selectFrom('users')
      .select(['issuer', 'admitted_at'])
      .where('subject', '=', created!.subject)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ issuer: t.config.auth.issuer, admitted_at: expect.any(String) });
  });

  it('A3: does not ask a browser that entered the code in the web app', async () => {
    const browser = new Browser(t.app, host, freshAddress());
    expect((await browser.enterAccessCode(await accessCodeOf(t.app, t.config))).statusCode).toBe(200);
    const page = await signUpPage(browser);
    expect((await browser.request('GET', page)).body).not.toContain('access_code');
    const created = await browser.request('POST', page, { ...account, email: 'hal@example.com' });
    expect(created.statusCode).toBe(303);
  });
});

describe(`the beta gate with DISABLE_AUTH, on ${testDatabaseKind()}`, () => {
  it("A3: does not apply: the mock user is every request's user and never passes a gate", async () => {
    const t = await createTestApp({ DISABLE_AUTH: 'true' });
    try {
      expect((await t.app.inject({ method: 'GET', url: AGENTS })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'POST', url: CHECK })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
