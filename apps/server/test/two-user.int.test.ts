import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedService } from './support/seed.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

/** B1–B3 (docs/security.md): Bob's token on Alice's ids, Bob's lists, and mass assignment. */
describe(`two-user matrix on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let alice: { authorization: string };
  let bob: { authorization: string };
  let aliceId: number;
  let aliceAgent: { id: number; name: string };
  let catalogTool: number;
  let aliceTool: number;

  const snapshot = async () => ({
    agents: await t.db.kysely.selectFrom('agents').selectAll().orderBy('id').execute(),
    tools: await t.db.kysely
      .selectFrom('agent_tools')
      .selectAll()
      .orderBy('agent_id')
      .orderBy('position')
      .execute(),
    triggers: await t.db.kysely.selectFrom('trigger_events').selectAll().orderBy('id').execute(),
    users: await t.db.kysely.selectFrom('users').selectAll().orderBy('id').execute(),
  });

  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp(issuer.env);
    // The snapshots compare every stored row before and after Bob's requests; the trigger worker
    // would otherwise pick up Alice's stored trigger event in between.
    await t.app.triggers.stop();
    ({ auth: alice, id: aliceId } = await signInAs(t, issuer, { sub: 'alice', email: 'alice@example.com' }));
    ({ auth: bob } = await signInAs(t, issuer, { sub: 'bob', email: 'bob@example.com' }));
    catalogTool = (await seedService(t.db, { name: 'Gmail', actions: 1 })).actionIds[0]!;
    aliceTool = (await seedService(t.db, { name: 'AliceMcp', ownerUserId: aliceId, actions: 1 }))
      .actionIds[0]!;
    aliceAgent = (
      await t.app.inject({
        method: 'POST',
        url: '/backend/api/v1/agents/',
        headers: alice,
        payload: {
          name: 'Alice agent',
          description: 'Private',
          guidelines: 'secret plan',
          tool_ids: [catalogTool, aliceTool],
        },
      })
    ).json();
    await t.app.inject({
      method: 'POST',
      url: `/backend/api/v1/agents/${aliceAgent.id}/triggers/t1`,
      headers: alice,
      payload: { x: 1 },
    });
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  it("B1: Bob's token on Alice's agent answers 404 on every verb and changes nothing", async () => {
    const before = await snapshot();
    const id = aliceAgent.id;
    const calls = [
      ['GET', `/backend/api/v1/agents/${id}/agent`, undefined],
      [
        'PATCH',
        `/backend/api/v1/agents/${id}`,
        { name: 'pwned', description: 'x', guidelines: null, tool_ids: [] },
      ],
      ['PATCH', `/backend/api/v1/agents/${id}`, {}],
      ['DELETE', `/backend/api/v1/agents/${id}`, undefined],
      ['POST', `/backend/api/v1/agents/${id}/triggers/t1`, { run: 'now' }],
    ] as const;
    for (const [method, url, payload] of calls) {
      const res = await t.app.inject({ method, url, headers: bob, payload });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ detail: 'Agent not found' });
    }
    expect(await snapshot()).toEqual(before);
  });

  it("B1: Bob's lists and export never show Alice's rows", async () => {
    const list = await t.app.inject({ method: 'GET', url: '/backend/api/v1/agents/', headers: bob });
    expect(list.json()).toEqual([]);
    const exported = await t.app.inject({
      method: 'GET',
      url: '/backend/api/v1/users/me/export',
      headers: bob,
    });
    expect(exported.body).not.toContain('Alice agent');
    expect(exported.body).not.toContain('secret plan');
    expect(exported.json().trigger_events).toEqual([]);
    const copilot = await t.app.inject({
      method: 'POST',
      url: '/backend/api/v1/auth/chainlit-copilot-login',
      headers: bob,
    });
    expect(copilot.statusCode).toBe(200);
  });

  it("B2: Alice's ids inside Bob's bodies answer 422 (tools of her own service, her agent as a copy source)", async () => {
    const before = await snapshot();
    const withTool = await t.app.inject({
      method: 'POST',
      url: '/backend/api/v1/agents/',
      headers: bob,
      payload: { name: 'b', description: 'b', tool_ids: [aliceTool] },
    });
    expect(withTool.statusCode).toBe(422);
    const copy = await t.app.inject({
      method: 'POST',
      url: '/backend/api/v1/agents/',
      headers: bob,
      payload: { name: 'b', description: 'b', duplicated_from: aliceAgent.id },
    });
    expect(copy.statusCode).toBe(422);
    expect(await snapshot()).toEqual(before);
  });

  it('B3: bodies carrying id, owner, user_id or created_at answer 422 and leave the row unchanged', async () => {
    const before = await snapshot();
    for (const extra of [
      { id: 999 },
      { owner: 'bob' },
      { user_id: 2 },
      { created_at: '2000-01-01T00:00:00Z' },
      { tools: [] },
    ]) {
      const patch = await t.app.inject({
        method: 'PATCH',
        url: `/backend/api/v1/agents/${aliceAgent.id}`,
        headers: alice,
        payload: { name: 'renamed', ...extra },
      });
      expect(patch.statusCode, JSON.stringify(extra)).toBe(422);
      expect(patch.json().detail[0].loc).toEqual(['body', Object.keys(extra)[0]]);
      const post = await t.app.inject({
        method: 'POST',
        url: '/backend/api/v1/agents/',
        headers: alice,
        payload: { name: 'n', description: 'd', ...extra },
      });
      expect(post.statusCode, JSON.stringify(extra)).toBe(422);
    }
    expect(await snapshot()).toEqual(before);
  });
});
