import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { bearer, signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const CODES = '/backend/api/v1/admin/access-codes';

/** The admin console's Access codes (issue 26): made here with a label, expiry and uses; revoked. */
describe(`access codes made by an admin on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let admin: { authorization: string };
  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp({ ...issuer.env, BETA_ACCESS_CODES: 'from-the-environment' });
    ({ auth: admin } = await signInAs(t, issuer, { sub: 'admin' }));
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  const enter = (password: string, address: string) =>
    t.app.inject({
      method: 'POST',
      url: '/backend/api/v1/public/beta-user-signin',
      remoteAddress: address,
      payload: { password },
    });

  it('makes a code shown once, counts its uses up to its maximum, and revokes it', async () => {
    const made = await t.app.inject({
      method: 'POST',
      url: CODES,
      headers: admin,
      payload: { label: 'Sales team', max_uses: 2 },
    });
    expect(made.statusCode).toBe(201);
    const code = made.json<{ id: number; code: string; hint: string }>();
    expect(code.code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    expect(code.hint).toBe(code.code.slice(-4));

    expect((await enter(code.code, '10.1.0.1')).statusCode).toBe(200);
    expect((await enter(code.code, '10.1.0.2')).statusCode).toBe(200);
    expect((await enter(code.code, '10.1.0.3')).statusCode).toBe(401);
    // The environment's code still works, and is never counted.
    expect((await enter('from-the-environment', '10.1.0.4')).statusCode).toBe(200);

    const list = (await t.app.inject({ method: 'GET', url: CODES, headers: admin })).json();
    expect(list).toEqual([
      expect.objectContaining({ id: null, source: 'environment', code: 'from-the-environment', uses: null }),
      expect.objectContaining({
        id: code.id,
        source: 'admin',
        label: 'Sales team',
        code: null,
        uses: 2,
        max_uses: 2,
      }),
    ]);

    const other = (
      await t.app.inject({ method: 'POST', url: CODES, headers: admin, payload: { label: 'Open' } })
    ).json<{ id: number; code: string }>();
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${CODES}/${other.id}`, headers: admin })).statusCode,
    ).toBe(204);
    expect((await enter(other.code, '10.1.0.5')).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${CODES}/999999`, headers: admin })).statusCode,
    ).toBe(404);
    const actions = await t.db.kysely
      .selectFrom('audit_events')
      .select('action')
      .where('action', 'in', ['access_code.create', 'access_code.revoke'])
      .execute();
    expect(actions.map((a) => a.action)).toEqual([
      'access_code.create',
      'access_code.create',
      'access_code.revoke',
    ]);
  });

  it('refuses an expiry in the past, and a non-admin', async () => {
    const past = await t.app.inject({
      method: 'POST',
      url: CODES,
      headers: admin,
      payload: { label: 'Old', expires_at: '2020-01-01T00:00:00Z' },
    });
    expect(past.statusCode).toBe(422);
    expect(past.json().detail[0].loc).toEqual(['body', 'expires_at']);
    const builder = bearer(await issuer.token({ sub: 'builder' }));
    await signInAs(t, issuer, { sub: 'builder' });
    expect((await t.app.inject({ method: 'GET', url: CODES, headers: builder })).statusCode).toBe(403);
  });
});
