import {
  AGENT_IMPORT_LIMIT_BYTES,
  agentExportSchema,
  agentImportResultSchema,
  agentVersionListSchema,
} from '@cadre/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedConnection, seedService, tableCounts } from './support/seed.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';
import { createAgent } from './support/users.ts';

const API = '/backend/api/v1';
const agentUrl = (id: number) => `${API}/agents/${id}`;

describe(`agent versions, export and import on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let alice: { authorization: string };
  let aliceId: number;
  let bob: { authorization: string };
  let bobId: number;
  let gmail: { serviceId: number; actionIds: number[] };
  let slack: { serviceId: number; actionIds: number[] };

  beforeAll(async () => {
    issuer = await startTestIssuer();
  });
  afterAll(async () => {
    await issuer?.close();
  });
  beforeEach(async () => {
    t = await createTestApp(issuer.env);
    ({ auth: alice, id: aliceId } = await signInAs(t, issuer, {
      sub: 'alice',
      email: 'alice@example.com',
      name: 'Alice',
    }));
    ({ auth: bob, id: bobId } = await signInAs(t, issuer, { sub: 'bob', email: 'bob@example.com' }));
    gmail = await seedService(t.db, { name: 'Gmail', actions: 3 });
    slack = await seedService(t.db, { name: 'Slack', actions: 2 });
  });
  afterEach(async () => {
    await t?.close();
  });

  const inject = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers: object,
    payload?: unknown,
  ) => t.app.inject({ method, url, headers: headers as Record<string, string>, payload: payload as object });
  const versionsOf = async (agentId: number, headers = alice) => {
    const res = await inject('GET', `${agentUrl(agentId)}/versions`, headers);
    expect(res.statusCode).toBe(200);
    return agentVersionListSchema.parse(res.json());
  };
  const createAgentVia = async (headers: object, body: object) => {
    const res = await inject('POST', `${API}/agents/`, headers, body);
    expect(res.statusCode).toBe(201);
    return res.json() as { id: number; name: string; tools: { id: number }[] };
  };

  it('records a version for every save, newest first, with who and when', async () => {
    const agent = await createAgentVia(alice, {
      name: 'Inbox',
      description: 'Sorts mail',
      tool_ids: [gmail.actionIds[0]],
    });
    expect(
      (await inject('PATCH', agentUrl(agent.id), alice, { name: 'Inbox 2', tool_ids: [slack.actionIds[1]] }))
        .statusCode,
    ).toBe(200);
    const versions = await versionsOf(agent.id);
    expect(versions.map((v) => [v.number, v.reason, v.saved_by, v.author])).toEqual([
      [2, 'update', aliceId, 'Alice'],
      [1, 'create', aliceId, 'Alice'],
    ]);
    expect(versions[1]!.snapshot).toEqual({
      name: 'Inbox',
      description: 'Sorts mail',
      guidelines: null,
      icon: null,
      color: null,
      starters: [],
      model_id: null,
      temperature: null,
      tools: [
        {
          id: gmail.actionIds[0],
          name: 'GMAIL_ACTION_0',
          display_name: 'Gmail action 0',
          app_name: 'Gmail',
          provider: 'builtin',
          service_key: expect.stringMatching(/^gmail-/),
        },
      ],
      files: [],
    });
    expect(versions[0]!.snapshot.tools.map((tool) => tool.id)).toEqual([slack.actionIds[1]]);
    expect(Date.parse(versions[0]!.created_at)).toBeGreaterThanOrEqual(Date.parse(versions[1]!.created_at));
  });

  it('restores a version as a new version, audited', async () => {
    const agent = await createAgentVia(alice, {
      name: 'Inbox',
      description: 'Sorts mail',
      guidelines: 'Be brief',
      tool_ids: [gmail.actionIds[0], slack.actionIds[0]],
    });
    await inject('PATCH', agentUrl(agent.id), alice, { name: 'Changed', guidelines: null, tool_ids: [] });
    const restored = await inject('POST', `${agentUrl(agent.id)}/versions/1/restore`, alice);
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({
      id: agent.id,
      name: 'Inbox',
      guidelines: 'Be brief',
      tools: [{ id: gmail.actionIds[0] }, { id: slack.actionIds[0] }],
      files_not_restored: [],
      tools_not_restored: [],
      model_not_restored: null,
    });
    const versions = await versionsOf(agent.id);
    expect(versions.map((v) => [v.number, v.reason, v.restored_from])).toEqual([
      [3, 'restore', 1],
      [2, 'update', null],
      [1, 'create', null],
    ]);
    const audit = await t.db.kysely
      .selectFrom('audit_events')
      .select(['detail'])
      .where('action', '=', 'agent.restore')
      .where('object_id', '=', String(agent.id))
      .execute();
    expect(audit.map((a) => JSON.parse(a.detail))).toEqual([
      { version: 1, tools: 2, tools_dropped: 0, model_dropped: false, files: 0, files_not_restored: 0 },
    ]);

    const missing = await inject('POST', `${agentUrl(agent.id)}/versions/9/restore`, alice);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Version not found', code: 'not_found' });
  });

  it('names the tools a restore could not bring back, because their service is gone', async () => {
    const own = await seedService(t.db, { name: 'Reports', ownerUserId: aliceId, actions: 2 });
    const agent = await createAgentVia(alice, {
      name: 'Reporter',
      description: 'Writes reports',
      tool_ids: [own.actionIds[0], slack.actionIds[0]],
    });
    await inject('PATCH', agentUrl(agent.id), alice, { tool_ids: [slack.actionIds[0]] });
    // The person removes their own server: its tools can no longer be attached.
    await t.db.kysely.deleteFrom('services').where('id', '=', own.serviceId).execute();

    const restored = await inject('POST', `${agentUrl(agent.id)}/versions/1/restore`, alice);
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({
      tools: [{ id: slack.actionIds[0] }],
      tools_not_restored: [{ id: own.actionIds[0], app_name: 'Reports' }],
      model_not_restored: null,
    });
    expect(restored.json().tools_not_restored).toHaveLength(1);
  });

  it('records icon, colour and starters in each version; restore, export and import carry them', async () => {
    const looks = { icon: '🧮', color: 'teal', starters: ['What is 12 × 7?'] };
    const agent = await createAgentVia(alice, { name: 'Sums', description: 'Adds', ...looks });
    const changed = await inject('PATCH', agentUrl(agent.id), alice, {
      icon: 'avatar:beam',
      color: null,
      starters: [],
    });
    expect(changed.json()).toMatchObject({ icon: 'avatar:beam', color: null, starters: [] });
    const versions = await versionsOf(agent.id);
    expect(versions.map((v) => [v.snapshot.icon, v.snapshot.color, v.snapshot.starters])).toEqual([
      ['avatar:beam', null, []],
      [looks.icon, looks.color, looks.starters],
    ]);

    const restored = await inject('POST', `${agentUrl(agent.id)}/versions/1/restore`, alice);
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject(looks);

    const exported = await inject('GET', `${agentUrl(agent.id)}/export`, alice);
    expect(exported.json().agent).toMatchObject(looks);
    const imported = await inject('POST', `${API}/agents/import`, bob, exported.json());
    expect(imported.statusCode).toBe(201);
    expect(imported.json().agent).toMatchObject(looks);
    expect((await versionsOf(imported.json().agent.id, bob))[0]!.snapshot).toMatchObject(looks);

    // A document written before icons and colours travelled imports with neither.
    const older = await inject('POST', `${API}/agents/import`, bob, {
      format: 'cadre.agent',
      format_version: 1,
      agent: { name: 'Plain', description: 'd', tools: [] },
    });
    expect(older.statusCode).toBe(201);
    expect(older.json().agent).toMatchObject({ icon: null, color: null, starters: [] });

    const before = await tableCounts(t.db);
    const bad = await inject('POST', `${API}/agents/import`, bob, {
      format: 'cadre.agent',
      format_version: 1,
      agent: { name: 'n', description: 'd', icon: 'not an emoji', color: 'mauve', tools: [] },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual([
      'body.agent.icon',
      'body.agent.color',
    ]);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('keeps the state before the first recorded save of an agent made without one', async () => {
    const id = await createAgent(t.db, aliceId, 'Legacy');
    await inject('PATCH', agentUrl(id), alice, { name: 'Renamed' });
    const versions = await versionsOf(id);
    expect(versions.map((v) => [v.number, v.reason, v.saved_by, v.author, v.snapshot.name])).toEqual([
      [2, 'update', aliceId, 'Alice', 'Renamed'],
      [1, 'baseline', null, null, 'Legacy'],
    ]);
  });

  it('answers 404 for another user’s agent and writes nothing', async () => {
    const agent = await createAgentVia(alice, { name: 'Mine', description: 'd' });
    const before = await tableCounts(t.db);
    for (const [method, url] of [
      ['GET', `${agentUrl(agent.id)}/versions`],
      ['POST', `${agentUrl(agent.id)}/versions/1/restore`],
      ['GET', `${agentUrl(agent.id)}/export`],
    ] as const) {
      const res = await inject(method, url, bob);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ detail: 'Agent not found', code: 'not_found' });
    }
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('removes the versions with the agent and with the user', async () => {
    const first = await createAgentVia(alice, { name: 'One', description: 'd' });
    const second = await createAgentVia(alice, { name: 'Two', description: 'd' });
    await inject('PATCH', agentUrl(second.id), alice, { name: 'Two again' });
    const count = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('agent_versions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', aliceId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count()).toBe(3);
    expect((await inject('DELETE', agentUrl(first.id), alice)).statusCode).toBe(204);
    expect(await count()).toBe(2);
    const exported = (await inject('GET', `${API}/users/me/export`, alice)).json();
    expect(exported.agent_versions.map((v: { number: number }) => v.number)).toEqual([1, 2]);
    // Alice's account came first (the admin): Bob becomes admin too, so she may delete hers.
    expect((await inject('PATCH', `${API}/admin/people/${bobId}`, alice, { role: 'admin' })).statusCode).toBe(
      200,
    );
    expect((await inject('DELETE', `${API}/users/me`, alice)).statusCode).toBe(204);
    expect(await count()).toBe(0);
  });

  it('exports by stable keys and imports for another user, listing tools to connect and not found', async () => {
    const own = await seedService(t.db, { name: 'Notes', ownerUserId: aliceId, actions: 1 });
    const agent = await createAgentVia(alice, {
      name: 'Helper',
      description: 'Helps',
      guidelines: 'Be kind',
      tool_ids: [gmail.actionIds[1], own.actionIds[0], slack.actionIds[0]],
    });
    const exported = await inject('GET', `${agentUrl(agent.id)}/export`, alice);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toBe('attachment; filename="Helper.agent.json"');
    const document = agentExportSchema.parse(exported.json());
    expect(document.format_version).toBe(1);
    // No numbers but the format version: no agent, tool, service or connection ids travel.
    const numbers: unknown[] = [];
    JSON.parse(exported.body, (_key, value: unknown) => {
      if (typeof value === 'number') numbers.push(value);
      return value;
    });
    expect(numbers).toEqual([1]);
    expect(exported.body).not.toContain('"id"');

    // Bob has connected Slack, not Gmail, and cannot see Alice's own Notes server.
    await seedConnection(t.db, bobId, slack.serviceId, null);
    // Alice's ids put into the document are not read: the import makes a new agent of Bob's.
    const withIds = {
      ...document,
      id: agent.id,
      agent: { ...document.agent, id: agent.id, user_id: aliceId },
    };
    const imported = await inject('POST', `${API}/agents/import`, bob, withIds);
    expect(imported.statusCode).toBe(201);
    const result = agentImportResultSchema.parse(imported.json());
    expect(result.agent).toMatchObject({
      name: 'Helper',
      description: 'Helps',
      guidelines: 'Be kind',
      tools: [{ id: gmail.actionIds[1] }, { id: slack.actionIds[0] }],
    });
    expect(result.agent.id).not.toBe(agent.id);
    expect(result.tools_to_connect).toEqual([
      expect.objectContaining({
        tool_name: 'GMAIL_ACTION_1',
        service_id: gmail.serviceId,
        provider: 'builtin',
      }),
    ]);
    expect(result.tools_not_found).toEqual([
      expect.objectContaining({ tool_name: 'NOTES_ACTION_0', provider: 'mcp', service_name: 'Notes' }),
    ]);
    const bobsVersions = await versionsOf(result.agent.id, bob);
    expect(bobsVersions.map((v) => [v.number, v.reason])).toEqual([[1, 'import']]);
    // Alice's agent is untouched.
    expect((await versionsOf(agent.id)).length).toBe(1);
  });

  it('refuses a newer format version with a 422 naming the field, and bad documents, writing nothing', async () => {
    const before = await tableCounts(t.db);
    const newer = await inject('POST', `${API}/agents/import`, bob, {
      format: 'cadre.agent',
      format_version: 2,
      agent: { name: 'n', description: 'd', tools: [] },
    });
    expect(newer.statusCode).toBe(422);
    expect(newer.json().detail).toEqual([
      expect.objectContaining({ loc: ['body', 'format_version'], msg: expect.stringContaining('newer') }),
    ]);
    const blank = await inject('POST', `${API}/agents/import`, bob, {
      format: 'cadre.agent',
      format_version: 1,
      agent: {
        name: ' ',
        description: 'd',
        tools: [{ provider: 'builtin', service_key: '', tool_name: 'x' }],
      },
    });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual([
      'body.agent.name',
      'body.agent.tools.0.service_key',
    ]);
    const huge = await inject('POST', `${API}/agents/import`, bob, {
      format: 'cadre.agent',
      format_version: 1,
      agent: { name: 'n', description: 'x'.repeat(AGENT_IMPORT_LIMIT_BYTES), tools: [] },
    });
    expect(huge.statusCode).toBe(413);
    expect(await tableCounts(t.db)).toEqual(before);
  });
});
