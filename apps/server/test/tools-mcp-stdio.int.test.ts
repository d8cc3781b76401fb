import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { createUser } from './support/users.ts';

const serverScript = fileURLToPath(new URL('./support/mcp-stdio-server.ts', import.meta.url));

describe(`an operator's stdio MCP server on ${testDatabaseKind()}`, () => {
  let t: TestApp;
  let alice: number;

  beforeEach(async () => {
    // A secret in the server's own environment must not reach the tool process.
    process.env.CADRE_STDIO_CANARY = 'secret-in-the-server-environment';
    t = await createTestApp({
      MCP_SERVERS: JSON.stringify([
        { name: 'local-tools', command: process.execPath, args: ['--import', 'tsx', serverScript] },
      ]),
    });
    alice = await createUser(t.db, 'alice');
  });
  afterEach(async () => {
    delete process.env.CADRE_STDIO_CANARY;
    await t?.close();
  });

  it('becomes a service whose tools run in the configured command, without the server environment', async () => {
    const service = (await t.app.services.listServicesForUser(alice)).find((s) => s.name === 'local-tools')!;
    expect(service).toMatchObject({ auth_schemes: ['NO_AUTH'], status: 'INACTIVE' });
    const actions = await t.db.kysely
      .selectFrom('actions')
      .select(['id', 'name', 'effect'])
      .where('service_id', '=', service.id)
      .orderBy('name')
      .execute();
    expect(actions.map((a) => [a.name, a.effect])).toEqual([
      ['inherited_env', 'read'],
      ['shout', 'read'],
    ]);
    await t.app.services.registerNoAuthService(service.id, alice);
    const shout = actions.find((a) => a.name === 'shout')!.id;
    expect(await t.app.tools.executeAction(alice, shout, { text: 'hello' })).toEqual({
      ok: true,
      data: 'HELLO',
    });
    const env = actions.find((a) => a.name === 'inherited_env')!.id;
    expect(await t.app.tools.executeAction(alice, env, {})).toEqual({ ok: true, data: 'none' });
  });
});
