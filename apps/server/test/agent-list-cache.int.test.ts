import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { agentListSchema, type Agent } from '@cadre/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectionStore } from '../src/modules/services/index.ts';
import { syncCatalogServices } from '../src/modules/tools/catalog-sync.ts';
import { seedService } from './support/seed.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const AGENTS = '/backend/api/v1/agents/';

/**
 * The agent list answered from memory (issue 28): two instances on one database, as behind a load
 * balancer. Each keeps the answers it built; a write on either must show on the other at once, and
 * a 304 must never confirm a list the other instance has changed.
 */
describe(`the agent list kept per list version, across instances, on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let a: TestApp;
  let b: TestApp;
  let auth: { authorization: string };
  let userId: number;
  let gmail: { serviceId: number; actionIds: number[] };

  beforeAll(async () => {
    issuer = await startTestIssuer();
    a = await createTestApp(issuer.env);
    b = await createTestApp({}, {}, { sameDatabaseAs: a });
    ({ auth, id: userId } = await signInAs(a, issuer, { sub: 'alice' }));
    gmail = await seedService(a.db, { name: 'Gmail', actions: 2 });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await issuer?.close();
  });

  const list = (t: TestApp, headers: Record<string, string> = {}, url = AGENTS) =>
    t.app.inject({ method: 'GET', url, headers: { ...auth, ...headers } });
  const names = async (t: TestApp, url = AGENTS) =>
    agentListSchema.parse((await list(t, {}, url)).json()).map((agent) => agent.name);
  const write = (t: TestApp, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: auth, ...(payload && { payload }) });

  /** Runs `work` with the agents table renamed away: any read of the list's tables then fails. */
  const withoutAgentsTable = async <T>(t: TestApp, work: () => Promise<T>): Promise<T> => {
    await sql`alter table agents rename to agents_away`.execute(t.db.kysely);
    try {
      return await work();
    } finally {
      await sql`alter table agents_away rename to agents`.execute(t.db.kysely);
    }
  };

  it('shows a write made on one instance on the other at once, and never answers 304 for the old list', async () => {
    const created = await write(a, 'POST', AGENTS, {
      name: 'Inbox',
      description: 'd',
      tool_ids: gmail.actionIds,
    });
    expect(created.statusCode).toBe(201);
    const agentId = (created.json() as Agent).id;
    // Both instances now keep the list with the one agent.
    expect(await names(a)).toEqual(['Inbox']);
    const first = await list(b);
    expect(first.json()).toEqual(agentListSchema.parse((await list(a)).json()));
    const etag = first.headers.etag as string;
    expect(first.headers.etag).toBe((await list(a)).headers.etag);

    // Unchanged: 304 on both, and neither reads the list's tables for it or for a kept answer.
    await withoutAgentsTable(a, async () => {
      for (const t of [a, b]) {
        const again = await list(t, { 'if-none-match': etag });
        expect(again.statusCode).toBe(304);
        expect(again.body).toBe('');
        expect((await list(t)).statusCode).toBe(200);
      }
    });

    // Renamed on A: B answers the new list, not 304 and not its kept answer.
    expect((await write(a, 'PATCH', `/backend/api/v1/agents/${agentId}`, { name: 'Mail' })).statusCode).toBe(
      200,
    );
    const changed = await list(b, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(agentListSchema.parse(changed.json()).map((agent) => agent.name)).toEqual(['Mail']);

    // Created on B, paged on A (the web app's shape): A's kept page is replaced too.
    expect(await names(a, `${AGENTS}?limit=50`)).toEqual(['Mail']);
    expect(
      (await write(b, 'POST', AGENTS, { name: 'Calendar', description: 'd', tool_ids: [] })).statusCode,
    ).toBe(201);
    expect(await names(a, `${AGENTS}?limit=50`)).toEqual(['Mail', 'Calendar']);
    expect(await names(a, `${AGENTS}?limit=1`)).toEqual(['Mail']);

    // Deleted on A: gone on B.
    expect((await write(a, 'DELETE', `/backend/api/v1/agents/${agentId}`)).statusCode).toBe(204);
    expect(await names(b)).toEqual(['Calendar']);
    expect(await names(b, `${AGENTS}?limit=50`)).toEqual(['Calendar']);
  });

  it('shows a connection that expired, and a catalog change, on the other instance at once', async () => {
    expect(
      (await write(a, 'POST', AGENTS, { name: 'Tools', description: 'd', tool_ids: gmail.actionIds }))
        .statusCode,
    ).toBe(201);
    const flags = async (t: TestApp) =>
      agentListSchema
        .parse((await list(t)).json())
        .find((agent) => agent.name === 'Tools')!
        .tools.map((tool) => [tool.app_name, tool.needs_reconnecting]);
    await createConnectionStore(a.db).recordUse(userId, gmail.serviceId, {
      at: new Date().toISOString(),
      change: { status: 'ACTIVE' },
    });
    expect(await flags(b)).toEqual([
      ['Gmail', true],
      ['Gmail', true],
    ]);
    // A connection made on B (the services module's write) shows on A.
    await b.db.kysely
      .insertInto('connections')
      .values({
        user_id: userId,
        service_id: gmail.serviceId,
        status: 'EXPIRED',
        external_id: null,
        credentials: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    await createConnectionStore(b.db).recordUse(userId, gmail.serviceId, {
      at: new Date().toISOString(),
      change: { status: 'ACTIVE' },
    });
    expect(await flags(a)).toEqual([
      ['Gmail', false],
      ['Gmail', false],
    ]);

    // The catalog renames the service on B's sync: every user's list shows it on A.
    const { provider_key: key } = await b.db.kysely
      .selectFrom('services')
      .select('provider_key')
      .where('id', '=', gmail.serviceId)
      .executeTakeFirstOrThrow();
    await b.db.kysely
      .transaction()
      .execute((trx) =>
        syncCatalogServices(
          trx,
          'builtin',
          [{ key, name: 'Google Mail', description: 'Mail', logo: null, authScheme: 'NO_AUTH' }],
          new Date().toISOString(),
        ),
      );
    expect(await flags(a)).toEqual([
      ['Google Mail', false],
      ['Google Mail', false],
    ]);
  });

  it('sends the kept answer compressed for Accept-Encoding from 1 KB, with the same ETag', async () => {
    // Below the floor it goes out as it is, whatever the client accepts.
    const small = await list(a, { 'accept-encoding': 'br, gzip' });
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    for (const name of ['One', 'Two', 'Three'])
      expect(
        (await write(a, 'POST', AGENTS, { name, description: 'd', tool_ids: gmail.actionIds })).statusCode,
      ).toBe(201);
    const plain = await list(a);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.rawPayload.length).toBeGreaterThanOrEqual(1024);
    const br = await list(a, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect((await promisify(zlib.brotliDecompress)(br.rawPayload)).equals(plain.rawPayload)).toBe(true);
    const gzip = await list(a, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect((await promisify(zlib.gunzip)(gzip.rawPayload)).equals(plain.rawPayload)).toBe(true);
    expect(new Set([plain, br, gzip].map((r) => r.headers.etag)).size).toBe(1);
    expect(
      (await list(a, { 'accept-encoding': 'br', 'if-none-match': plain.headers.etag as string })).statusCode,
    ).toBe(304);
  });

  it('keeps users, and API keys limited to some agents, apart', async () => {
    const bob = await signInAs(a, issuer, { sub: 'bob' });
    const bobs = await a.app.inject({ method: 'GET', url: AGENTS, headers: bob.auth });
    expect(bobs.json()).toEqual([]);
    // Bob's ETag is never Alice's, even at the same version number.
    const alices = await list(a);
    expect(bobs.headers.etag).not.toBe(alices.headers.etag);
    expect(
      (
        await a.app.inject({
          method: 'GET',
          url: AGENTS,
          headers: { ...bob.auth, 'if-none-match': alices.headers.etag as string },
        })
      ).statusCode,
    ).toBe(200);

    const [first] = agentListSchema.parse(alices.json());
    const key = await a.app.inject({
      method: 'POST',
      url: '/backend/api/v1/api-keys',
      headers: auth,
      payload: { name: 'one agent', scopes: ['agents:read'], agent_ids: [first!.id] },
    });
    expect(key.statusCode).toBe(201);
    const limited = await b.app.inject({
      method: 'GET',
      url: AGENTS,
      headers: { authorization: `Bearer ${key.json<{ key: string }>().key}` },
    });
    expect(agentListSchema.parse(limited.json()).map((agent) => agent.id)).toEqual([first!.id]);
    expect(limited.headers.etag).not.toBe(alices.headers.etag);
  });
});
