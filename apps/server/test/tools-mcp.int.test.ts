import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { customMcpServerBodySchema } from '@cadre/contract';
import { ValidationFailure } from '../src/http/errors.ts';
import { MCP_IDEMPOTENCY_KEY } from '../src/modules/tools/providers/mcp/index.ts';
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
    // An unattended write's idempotency key travels in the call's `_meta`, for servers that honour it.
    const post = actions.find((a) => a.name === 'post_message')!.id;
    const key = 'trigger-event:9:3:1';
    expect(await t.app.tools.executeAction(alice, post, { text: 'once' }, { idempotencyKey: key })).toEqual({
      ok: true,
      data: 'posted',
    });
    const calls = operatorServer.seenBodies.filter(
      (b): b is { method: string; params: { name: string; _meta?: Record<string, unknown> } } =>
        (b as { method?: string }).method === 'tools/call',
    );
    expect(calls.find((c) => c.params.name === 'post_message')?.params._meta).toMatchObject({
      [MCP_IDEMPOTENCY_KEY]: key,
    });
    expect(calls.find((c) => c.params.name === 'echo')?.params._meta?.[MCP_IDEMPOTENCY_KEY]).toBeUndefined();
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
    // The wrong token: the server refuses (listing its tools is the check), so nothing is added,
    // and the answer names the token's field and the refusal.
    const wrongToken = await t.app.services
      .addCustomMcpServer(alice, { name: 'x', url: userServer.url, bearer_token: 'nope' })
      .catch((e: unknown) => e);
    expect(wrongToken).toBeInstanceOf(ValidationFailure);
    expect((wrongToken as ValidationFailure).issues).toEqual([
      {
        loc: ['body', 'bearer_token'],
        msg: 'The MCP server refused these credentials (401)',
        type: 'key_refused',
      },
    ]);
    // No credentials at all: the URL is what the server refused.
    const noToken = await t.app.services
      .addCustomMcpServer(alice, { name: 'x', url: userServer.url })
      .catch((e: unknown) => e);
    expect((noToken as ValidationFailure).issues).toEqual([
      {
        loc: ['body', 'url'],
        msg: 'The MCP server refused to answer without credentials (401)',
        type: 'key_refused',
      },
    ]);
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
    expect((headerServer as ValidationFailure).issues[0]).toMatchObject({
      loc: ['body', 'header_value'],
      type: 'key_refused',
    });
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

describe(`R11: limits on what MCP servers send back, on ${testDatabaseKind()}`, () => {
  const MB = 1024 * 1024;
  let many: TestMcpServer;
  let wide: TestMcpServer;
  let hostile: TestMcpServer;
  let hostileSse: TestMcpServer;
  let t: TestApp;
  let alice: number;

  beforeAll(async () => {
    many = await startMcpServer(undefined, { extraTools: 3000 });
    wide = await startMcpServer(undefined, { extraTools: 300, descriptionBytes: 10_000 });
    hostile = await startMcpServer(undefined, { floodBytes: 12 * MB, slowMs: 3_000 });
    hostileSse = await startMcpServer(undefined, { floodBytes: 12 * MB, sse: true });
  });
  afterAll(async () => {
    await Promise.all([many, wide, hostile, hostileSse].map((s) => s?.close()));
  });
  beforeEach(async () => {
    t = await createTestApp({
      EGRESS_ALLOW_PRIVATE: '127.0.0.1',
      MCP_CALL_TIMEOUT_MS: '1000',
      MCP_SERVERS: JSON.stringify([
        { name: 'hostile', url: hostile.url },
        { name: 'hostile-sse', url: hostileSse.url },
      ]),
    });
    alice = await createUser(t.db, 'alice');
  });
  afterEach(async () => {
    await t?.close();
  });

  // Adding a server lists its tools within MCP_CALL_TIMEOUT_MS: 1 s (for the call tests below) is
  // too short for 3,000 tools on a busy machine, so these adds go through a second instance on the
  // same database with a 30 s timeout.
  const refusal = async (url: string) => {
    const roomy = await createTestApp({ MCP_CALL_TIMEOUT_MS: '30000' }, {}, { sameDatabaseAs: t });
    try {
      const err = await roomy.app.services
        .addCustomMcpServer(alice, { name: 'mine', url })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationFailure);
      return (err as ValidationFailure).issues;
    } finally {
      await roomy.close();
    }
  };
  const ownRows = async () => ({
    services: await t.db.kysely
      .selectFrom('services')
      .select('id')
      .where('owner_user_id', '=', alice)
      .execute(),
    connections: await t.db.kysely
      .selectFrom('connections')
      .select('id')
      .where('user_id', '=', alice)
      .execute(),
  });
  const operatorAction = async (server: string, name: string) => {
    const service = (await t.app.services.listServicesForUser(alice)).find((s) => s.name === server)!;
    await t.app.services.registerNoAuthService(service.id, alice);
    return (
      await t.db.kysely
        .selectFrom('actions')
        .select('id')
        .where('service_id', '=', service.id)
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
    ).id;
  };

  it('R11: refuses a server offering 3,000 tools, naming MCP_MAX_TOOLS, and stores nothing', async () => {
    expect(await refusal(many.url)).toEqual([
      {
        loc: ['body', 'url'],
        msg: 'The MCP server offers more than 500 tools, the most Cadre accepts (MCP_MAX_TOOLS); nothing was added',
        type: 'value_error',
      },
    ]);
    expect(await ownRows()).toEqual({ services: [], connections: [] });
  });

  it('R11: refuses a tool list larger than MCP_MAX_TOOL_LIST_BYTES, and stores nothing', async () => {
    const [issue] = await refusal(wide.url);
    expect(issue!.msg).toBe(
      "The MCP server's list of tools is larger than 2097152 bytes, the most Cadre accepts (MCP_MAX_TOOL_LIST_BYTES); nothing was added",
    );
    expect(await ownRows()).toEqual({ services: [], connections: [] });
  });

  it('R11: refuses a 12 MB tool result, as one JSON body or as a stream, naming MCP_MAX_RESULT_BYTES', async () => {
    for (const server of ['hostile', 'hostile-sse']) {
      const flood = await operatorAction(server, 'flood');
      const started = Date.now();
      const result = await t.app.tools.executeAction(alice, flood, {});
      expect(result, server).toEqual({
        ok: false,
        code: 'provider_error',
        error:
          "The MCP tool's answer is larger than 1048576 bytes, the most Cadre accepts (MCP_MAX_RESULT_BYTES); it was not used",
      });
      // Cut off as the bytes arrive, not after waiting for the call's timeout.
      expect(Date.now() - started, server).toBeLessThan(5_000);
    }
  });

  it('R11: ends a call that takes longer than MCP_CALL_TIMEOUT_MS as a timeout', async () => {
    const slow = await operatorAction('hostile', 'slow');
    const started = Date.now();
    expect(await t.app.tools.executeAction(alice, slow, {})).toEqual({
      ok: false,
      code: 'timeout',
      error: 'The MCP server did not answer in time',
    });
    expect(Date.now() - started).toBeLessThan(2_900);
  });
});
