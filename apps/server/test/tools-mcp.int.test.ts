import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { customMcpServerBodySchema } from '@cadre/contract';
import { ValidationFailure } from '../src/http/errors.ts';
import { startMcpServer, type TestMcpServer } from './support/mcp-server.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { createUser } from './support/users.ts';

describe(`MCP servers on ${testDatabaseKind()}`, () => {
  let operatorServer: TestMcpServer;
  let userServer: TestMcpServer;
  const token = `sk-canary-mcp-${crypto.randomUUID()}`;
  let t: TestApp;
  let alice: number;
  let bob: number;

  beforeAll(async () => {
    operatorServer = await startMcpServer('Bearer operator-token');
    userServer = await startMcpServer(`Bearer ${token}`);
  });
  afterAll(async () => {
    await operatorServer?.close();
    await userServer?.close();
  });
  beforeEach(async () => {
    t = await createTestApp({
      EGRESS_ALLOW_PRIVATE: '127.0.0.1',
      MCP_SERVERS: JSON.stringify([
        { name: 'ops', url: operatorServer.url, headers: { authorization: 'Bearer operator-token' } },
      ]),
    });
    alice = await createUser(t.db, 'alice');
    bob = await createUser(t.db, 'bob');
  });
  afterEach(async () => {
    await t?.close();
  });

  const actionsOf = (serviceId: number) =>
    t.db.kysely
      .selectFrom('actions')
      .select(['id', 'name', 'effect', 'display_name'])
      .where('service_id', '=', serviceId)
      .orderBy('name')
      .execute();

  it('turns an operator-declared server into a service whose tools are actions', async () => {
    const ops = (await t.app.services.listServicesForUser(alice)).find((s) => s.name === 'ops')!;
    expect(ops).toMatchObject({ auth_schemes: ['NO_AUTH'], status: 'INACTIVE' });
    const actions = await actionsOf(ops.id);
    expect(actions.map((a) => [a.name, a.effect, a.display_name])).toEqual([
      ['delete_item', 'write', 'delete_item'],
      ['echo', 'read', 'Echo'],
      ['fail', 'write', 'fail'],
      ['post_message', 'send', 'post_message'],
    ]);
    await t.app.services.registerNoAuthService(ops.id, alice);
    const echo = actions.find((a) => a.name === 'echo')!.id;
    expect(await t.app.tools.executeAction(alice, echo, { text: 'hi' })).toEqual({
      ok: true,
      data: 'echo: hi',
    });
    expect(await t.app.tools.executeAction(alice, actions.find((a) => a.name === 'fail')!.id, {})).toEqual({
      ok: false,
      code: 'provider_error',
      error: 'upstream exploded',
    });
  });

  it('lets a user add their own server by URL, visible and usable only by them (F2, G2, G4)', async () => {
    process.env.CADRE_TEST_FOO = 'secret-from-env';
    // The route's body schema (the contract's) refuses by name every field that could start a
    // process, and any field it does not know; the service receives only what it accepted.
    for (const field of ['command', 'args', 'env', 'stdio', 'transport']) {
      const parsed = customMcpServerBodySchema.safeParse({
        name: 'x',
        url: userServer.url,
        [field]: field === 'args' ? ['-c', 'id'] : 'sh',
      });
      expect(
        parsed.error?.issues.map((i) => i.path),
        field,
      ).toEqual([[field]]);
    }
    expect(
      customMcpServerBodySchema.safeParse({ name: 'x', url: userServer.url, extra: 1 }).error?.issues,
    ).toMatchObject([{ code: 'unrecognized_keys', keys: ['extra'] }]);
    for (const url of [
      'http://169.254.169.254/mcp',
      'file:///etc/passwd',
      'http://10.0.0.5/mcp',
      'javascript:alert(1)',
    ]) {
      await expect(t.app.services.addCustomMcpServer(alice, { name: 'x', url })).rejects.toBeInstanceOf(
        ValidationFailure,
      );
    }
    // The wrong token: the server refuses, so nothing is added.
    await expect(
      t.app.services.addCustomMcpServer(alice, { name: 'x', url: userServer.url, bearer_token: 'nope' }),
    ).rejects.toBeInstanceOf(ValidationFailure);
    expect(
      (await t.db.kysely.selectFrom('services').select('id').where('owner_user_id', 'is not', null).execute())
        .length,
    ).toBe(0);

    const added = await t.app.services.addCustomMcpServer(alice, {
      name: 'My tools',
      url: `${userServer.url}?v=\${CADRE_TEST_FOO}`,
      bearer_token: token,
    });
    expect(added).toMatchObject({ name: 'My tools', status: 'ACTIVE' });
    // Placeholders are sent literally, never expanded against the environment.
    expect(userServer.seenPaths.at(-1)).toBe('/mcp?v=${CADRE_TEST_FOO}');
    expect(JSON.stringify(userServer.seenHeaders)).not.toContain('secret-from-env');

    const headerServer = await t.app.services
      .addCustomMcpServer(alice, {
        name: 'Header',
        url: userServer.url,
        header_name: 'X-Key',
        header_value: '${CADRE_TEST_FOO}',
      })
      .catch((e: unknown) => e);
    expect(headerServer).toBeInstanceOf(ValidationFailure); // the server wants the bearer token
    expect(userServer.seenHeaders.at(-1)?.['x-key']).toBe('${CADRE_TEST_FOO}');

    expect((await t.app.services.listServicesForUser(alice)).map((s) => s.name)).toContain('My tools');
    expect((await t.app.services.listServicesForUser(bob)).map((s) => s.name)).not.toContain('My tools');
    await expect(t.app.services.listActions(added.id, bob)).rejects.toMatchObject({ statusCode: 404 });
    await expect(t.app.services.registerNoAuthService(added.id, bob)).rejects.toMatchObject({
      statusCode: 404,
    });

    const echo = (await actionsOf(added.id)).find((a) => a.name === 'echo')!.id;
    expect(await t.app.tools.executeAction(alice, echo, { text: 'mine' })).toEqual({
      ok: true,
      data: 'echo: mine',
    });
    expect(await t.app.tools.executeAction(bob, echo, { text: 'theirs' })).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    expect(userServer.seenHeaders.at(-1)?.authorization).toBe(`Bearer ${token}`);

    const rows =
      JSON.stringify(await t.db.kysely.selectFrom('connections').selectAll().execute()) +
      JSON.stringify(await t.db.kysely.selectFrom('services').selectAll().execute());
    expect(rows).not.toContain(token);
    expect(t.logs.join('\n')).not.toContain(token);
    delete process.env.CADRE_TEST_FOO;
  });

  it('ends every MCP session it opens: after each call to a user server, and at shutdown for the operator one', async () => {
    const stateful = await startMcpServer(undefined, { sessions: true });
    const app = await createTestApp({
      EGRESS_ALLOW_PRIVATE: '127.0.0.1',
      MCP_SERVERS: JSON.stringify([{ name: 'ops-sessions', url: stateful.url }]),
    });
    try {
      const carol = await createUser(app.db, 'carol');
      // The operator's server keeps one session while the app runs.
      const ops = (await app.app.services.listServicesForUser(carol)).find((s) => s.name === 'ops-sessions')!;
      expect(stateful.openSessions.size).toBe(1);
      await app.app.services.registerNoAuthService(ops.id, carol);

      // A user's own server: one session per use, ended when the use is over.
      const mine = await app.app.services.addCustomMcpServer(carol, { name: 'Stateful', url: stateful.url });
      expect(stateful.openSessions.size).toBe(1);
      const echo = await app.db.kysely
        .selectFrom('actions')
        .select('id')
        .where('service_id', '=', mine.id)
        .where('name', '=', 'echo')
        .executeTakeFirstOrThrow();
      expect(await app.app.tools.executeAction(carol, echo.id, { text: 'hi' })).toEqual({
        ok: true,
        data: 'echo: hi',
      });
      expect(stateful.openSessions.size).toBe(1);
      expect(stateful.seenHeaders.filter((h) => h['mcp-session-id']).length).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
    // Stopping the server ends the operator's session too.
    expect(stateful.openSessions.size).toBe(0);
    await stateful.close();
  });
});
