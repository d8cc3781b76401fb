import { once } from 'node:events';
import net from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import SqliteDatabase from 'better-sqlite3';
import { MIGRATION_NAMES } from '../src/db/migrate.ts';
import type { Lifecycle } from '../src/kernel.ts';
import { createLifecycle } from '../src/http/lifecycle.ts';
import { authorize, authorizeUrl, exchangeCode, pkcePair, tokenRequest } from './support/oidc-flow.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const LIVE = '/backend/api/v1/public/health/live';
const READY = '/backend/api/v1/public/health/ready';
const AGENTS = '/backend/api/v1/agents/';
const kind = testDatabaseKind();

/** Makes the database refuse writes the way a read-only volume or a standby would. */
async function setReadOnly(t: TestApp, readOnly: boolean) {
  if (kind === 'sqlite') {
    await sql.raw(`pragma query_only = ${readOnly ? 1 : 0}`).execute(t.db.kysely);
    return;
  }
  await asAdmin(t, async (admin) => {
    await admin.query('begin read write');
    const name = admin.database!;
    await admin.query(
      `alter database ${name} ${readOnly ? 'set default_transaction_read_only = on' : 'reset default_transaction_read_only'}`,
    );
    await admin.query('commit');
  });
  // Sessions pick the setting up when they connect: end Cadre's pooled ones.
  await terminateOtherBackends(t);
}

/** A connection of our own to the test's PostgreSQL database, outside Cadre's pool. */
async function asAdmin<T>(t: TestApp, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  if (t.config.database.kind !== 'postgres') throw new Error('PostgreSQL only');
  const admin = new pg.Client({ connectionString: t.config.database.url });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** pg_terminate_backend on every connection Cadre holds to this test's database, from outside. */
function terminateOtherBackends(t: TestApp) {
  return asAdmin(t, async (admin) => {
    const { rows } = await admin.query<{ killed: number }>(
      `select count(pg_terminate_backend(pid))::int as killed from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid()`,
    );
    return rows[0]!.killed;
  });
}

describe(`health and faults on ${kind}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let auth: { authorization: string };
  const lifecycle = createLifecycle();
  beforeAll(async () => {
    issuer = await startTestIssuer();
  });
  afterAll(async () => {
    await issuer?.close();
  });
  afterEach(async () => {
    await t?.close();
  });
  /** A lifecycle whose id sorts after the rows the full-disk test fills the instances table with. */
  const probeLifecycle = (): Lifecycle =>
    Object.assign(createLifecycle(), { instanceId: 'zzzz-ready-probe' });
  const start = async (env: Record<string, string> = {}) => {
    t = await createTestApp({ ...issuer.env, ...env }, { lifecycle: probeLifecycle() });
    ({ auth } = await signInAs(t, issuer, { sub: 'ops', email: 'ops@example.com' }));
  };
  const create = (name: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: AGENTS,
      headers: { ...auth, ...headers },
      payload: { name, description: 'd', tool_ids: [] },
    });
  const agentCount = async () =>
    Number(
      (
        await t.db.kysely
          .selectFrom('agents')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('is live and ready; a read-only database answers writes with 503 and Retry-After, readiness says so and stays 200, then recovers', async () => {
    await start();
    expect((await t.app.inject({ url: LIVE })).json()).toEqual({ status: 'live', unhandled_rejections: 0 });
    const ready = await t.app.inject({ url: READY });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'ok' });

    await setReadOnly(t, true);
    const refused = await create('while read-only');
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ detail: 'Service temporarily unavailable', code: 'db_unavailable' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The database fails every instance alike: this one stays routable, to answer the 503 itself.
    const stillReady = await t.app.inject({ url: READY });
    expect(stillReady.statusCode).toBe(200);
    expect(stillReady.json()).toEqual({ status: 'ready', database: 'read_only' });
    // Reads go on, and liveness never looks at the database.
    expect((await t.app.inject({ url: AGENTS, headers: auth })).statusCode).toBe(200);
    expect((await t.app.inject({ url: LIVE })).statusCode).toBe(200);

    await setReadOnly(t, false);
    expect((await create('after recovery')).statusCode).toBe(201);
    expect((await t.app.inject({ url: READY })).statusCode).toBe(200);
    expect(await agentCount()).toBe(1);
  });

  it('fails readiness while a migration this build knows is not applied, and recovers once it is', async () => {
    await start();
    // Readiness has not been asked yet: it reads the migrations table on its first check.
    const last = MIGRATION_NAMES.at(-1)!;
    const migrations = () =>
      t.db.kysely.withTables<{ schema_migrations: { name: string; timestamp: string } }>();
    const row = await migrations()
      .selectFrom('schema_migrations')
      .selectAll()
      .where('name', '=', last)
      .executeTakeFirstOrThrow();
    await migrations().deleteFrom('schema_migrations').where('name', '=', last).execute();
    const pending = await t.app.inject({ url: READY });
    expect(pending.statusCode).toBe(503);
    expect(pending.json()).toEqual({
      status: 'not_ready',
      reason: 'migrations_pending',
      code: 'unavailable',
    });
    expect((await t.app.inject({ url: LIVE })).statusCode).toBe(200);
    await migrations().insertInto('schema_migrations').values(row).execute();
    expect((await t.app.inject({ url: READY })).statusCode).toBe(200);
  });

  it('answers 503 within the configured bound when a statement cannot finish, and recovers', async () => {
    if (kind === 'sqlite') {
      await start();
      // Another process holds SQLite's write lock: a write waits out the busy timeout, then 503.
      const other = new SqliteDatabase(t.config.database.kind === 'sqlite' ? t.config.database.file : '');
      try {
        other.exec('begin immediate');
        const refused = await create('while locked');
        expect(refused.statusCode).toBe(503);
        expect(refused.json()).toEqual({ detail: 'Service temporarily unavailable', code: 'db_unavailable' });
        // Reads go on (WAL); readiness gives up on its write after a second, and says so.
        expect((await t.app.inject({ url: AGENTS, headers: auth })).statusCode).toBe(200);
        const ready = await t.app.inject({ url: READY });
        expect(ready.statusCode).toBe(200);
        expect(ready.json()).toEqual({ status: 'ready', database: 'unavailable' });
        other.exec('rollback');
      } finally {
        other.close();
      }
    } else {
      await start({
        DATABASE_STATEMENT_TIMEOUT_MS: '1000',
        DATABASE_ACQUIRE_TIMEOUT_MS: '1000',
        DATABASE_POOL_SIZE: '1',
      });
      await asAdmin(t, async (admin) => {
        // A table locked by someone else: every statement on it waits until statement_timeout.
        await admin.query('begin');
        await admin.query('lock table agents in access exclusive mode');
        const started = Date.now();
        const [slow, queued] = await Promise.all([
          t.app.inject({ url: AGENTS, headers: auth }),
          // The pool's one connection is taken by the slow statement: this one waits to acquire.
          t.app.inject({ url: AGENTS, headers: auth }),
        ]);
        expect(Date.now() - started).toBeLessThan(3_000);
        expect([slow.statusCode, queued.statusCode]).toEqual([503, 503]);
        expect(slow.json()).toEqual({ detail: 'Service temporarily unavailable', code: 'db_unavailable' });
        expect(Number(slow.headers['retry-after'])).toBeGreaterThan(0);
        await admin.query('rollback');
      });
    }
    expect((await t.app.inject({ url: AGENTS, headers: auth })).statusCode).toBe(200);
    expect((await create('after the lock')).statusCode).toBe(201);
  });

  it('while draining: not ready, still live, and every response asks the client to close its connection', async () => {
    t = await createTestApp(issuer.env, {}, {});
    const app = t.app;
    // A second app on the same database with a lifecycle the test controls, as main.ts passes one.
    const draining = await createTestApp({}, { lifecycle }, { sameDatabaseAs: t });
    try {
      expect((await draining.app.inject({ url: READY })).statusCode).toBe(200);
      await lifecycle.beginDraining();
      const ready = await draining.app.inject({ url: READY });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'not_ready', reason: 'draining', code: 'unavailable' });
      expect(ready.headers.connection).toBe('close');
      const live = await draining.app.inject({ url: LIVE });
      expect(live.statusCode).toBe(200);
      expect(live.headers.connection).toBe('close');
      // The other instance is unaffected.
      expect((await app.inject({ url: READY })).statusCode).toBe(200);
    } finally {
      await draining.close();
    }
  });

  it('closes without waiting for a connection that never carried a request', async () => {
    await start();
    // The socket would otherwise hold the close for HTTP_IDLE_TIMEOUT_MS, beyond the test's time.
    const closing = await createTestApp({ HTTP_IDLE_TIMEOUT_MS: '600000' }, {}, { sameDatabaseAs: t });
    const { port } = new URL(await closing.app.listen({ host: '127.0.0.1', port: 0 }));
    // A browser's pre-connect: a socket open, nothing sent on it.
    const unused = net.connect(Number(port), '127.0.0.1');
    await once(unused, 'connect');
    const unusedClosed = once(unused, 'close');
    await closing.close();
    await unusedClosed;
  });

  it('a retried create with the same Idempotency-Key answers with the first result and creates one agent', async () => {
    await start();
    const key = { 'idempotency-key': crypto.randomUUID() };
    const first = await create('Once', key);
    expect(first.statusCode).toBe(201);
    const retry = await create('Once', key);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(await agentCount()).toBe(1);

    // The same key with another request is refused, and changes nothing.
    const reused = await create('Something else', key);
    expect(reused.statusCode).toBe(422);
    expect(reused.json().detail[0].loc).toEqual(['headers', 'idempotency-key']);
    expect(await agentCount()).toBe(1);

    // Concurrent requests with one new key: one agent, every answer the same.
    const together = { 'idempotency-key': crypto.randomUUID() };
    const answers = await Promise.all(Array.from({ length: 5 }, () => create('Raced', together)));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect(await agentCount()).toBe(2);

    // A malformed key is named; without a key every request creates.
    const bad = await create('Bad key', { 'idempotency-key': 'has spaces in it' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['headers', 'idempotency-key']);
    expect((await create('Plain')).statusCode).toBe(201);
    expect((await create('Plain')).statusCode).toBe(201);
    expect(await agentCount()).toBe(4);
  });

  it('survives the database failing under it (SQLite full, PostgreSQL connections killed): 503, never 500, then recovers', async () => {
    await start();
    expect((await create('before')).statusCode).toBe(201);
    if (kind === 'sqlite') {
      // A full disk, as SQLite sees it: no page may be added. SQLite rolls the transaction back
      // itself, and the answer must name the outage, not the failed ROLLBACK that follows.
      const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(t.db.kysely);
      await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(t.db.kysely);
      const full = await t.app.inject({
        method: 'POST',
        url: AGENTS,
        headers: auth,
        payload: { name: 'big', description: 'd', guidelines: 'x'.repeat(9000), tool_ids: [] },
      });
      expect(full.statusCode).toBe(503);
      expect(full.json()).toEqual({ detail: 'Service temporarily unavailable', code: 'db_unavailable' });
      expect(t.logs.join('')).toContain('SQLITE_FULL');
      // Readiness writes this instance's row, which sorts after every row below: filling the
      // table's last page leaves that write no room either, as a full disk would.
      for (let n = 0; ; n += 1) {
        const now = new Date().toISOString();
        const filled = await t.db.kysely
          .insertInto('instances')
          .values({ id: `zzzz-${String(n).padStart(8, '0')}`, started_at: now, seen_at: now })
          .execute()
          .then(
            () => false,
            (err: { code?: string }) => err.code === 'SQLITE_FULL',
          );
        if (filled) break;
        expect(n).toBeLessThan(100_000);
      }
      const ready = await t.app.inject({ url: READY });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready', database: 'full' });
      await sql.raw('pragma max_page_count = 4294967294').execute(t.db.kysely);
    } else {
      for (let round = 0; round < 3; round += 1) {
        expect(await terminateOtherBackends(t)).toBeGreaterThan(0);
        // Every pooled connection died: the requests right after the kill meet dead ones, and
        // their transactions start again on new connections instead of failing.
        const after = await Promise.all([1, 2, 3].map((n) => create(`after ${round}.${n}`)));
        expect(after.map((res) => res.statusCode)).toEqual([201, 201, 201]);
        expect((await create(`again ${round}`)).statusCode).toBe(201);
      }
      expect(t.logs.join('')).toContain('database connection lost');
    }
    expect((await create('after recovery')).statusCode).toBe(201);
    expect((await t.app.inject({ url: READY })).statusCode).toBe(200);
  });
});

describe(`the built-in identity provider under concurrent redemption on ${kind}`, () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({}, {}, { sameDatabaseAs: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('redeems one authorization code exactly once when two instances receive it at the same moment', async () => {
    for (let round = 0; round < 3; round += 1) {
      const signedIn = await authorize(
        a.app,
        a.config,
        { email: `racer${round}@example.com`, password: 'correct horse battery', name: 'Racer' },
        { signUp: true },
      );
      const answers = await Promise.all([
        exchangeCode(a.app, a.config, signedIn),
        exchangeCode(b.app, b.config, signedIn),
        exchangeCode(a.app, a.config, signedIn),
      ]);
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      for (const refused of answers.filter((r) => r.status !== 200))
        expect(refused.body.error).toBe('invalid_grant');
    }
  });

  it('answers 503 while the database cannot serve: JSON on the token endpoint, a page in the browser; the code still works after', async () => {
    const signedIn = await authorize(
      a.app,
      a.config,
      { email: 'outage@example.com', password: 'correct horse battery', name: 'Outage' },
      { signUp: true },
    );
    await setReadOnly(a, true);
    try {
      const token = await a.app.inject({
        method: 'POST',
        url: '/idp/token',
        headers: {
          host: new URL(a.config.publicUrl).host,
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams({
          client_id: a.config.auth.clientId,
          grant_type: 'authorization_code',
          code: signedIn.code,
          code_verifier: signedIn.verifier,
          redirect_uri: a.config.auth.redirectUri,
        }).toString(),
      });
      expect(token.statusCode).toBe(503);
      expect(token.json()).toEqual({ detail: 'Service temporarily unavailable', code: 'db_unavailable' });
      expect(Number(token.headers['retry-after'])).toBeGreaterThan(0);
      const { challenge } = pkcePair();
      const page = await signedIn.browser.request(
        'GET',
        authorizeUrl(a.config, { code_challenge: challenge, code_challenge_method: 'S256' }),
      );
      expect(page.statusCode).toBe(503);
      expect(page.headers.location).toBeUndefined();
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('cannot reach its database; retrying');
      // The browser loads the page again by itself after Retry-After.
      expect(page.headers.refresh).toBe(page.headers['retry-after']);
    } finally {
      await setReadOnly(a, false);
    }
    // Nothing was used up by the failed attempt.
    expect((await exchangeCode(a.app, a.config, signedIn)).status).toBe(200);
  });

  it('revokes the whole family when one refresh token is used at the same moment on two instances', async () => {
    const signedIn = await authorize(
      a.app,
      a.config,
      { email: 'family@example.com', password: 'correct horse battery', name: 'Family' },
      { signUp: true },
    );
    const tokens = await exchangeCode(a.app, a.config, signedIn);
    const refresh = tokens.body.refresh_token!;
    const answers = await Promise.all([
      tokenRequest(a.app, a.config, { grant_type: 'refresh_token', refresh_token: refresh }),
      tokenRequest(b.app, b.config, { grant_type: 'refresh_token', refresh_token: refresh }),
    ]);
    // Exactly one wins; the other is told its grant is invalid (never a 500).
    const winners = answers.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    const losers = answers.filter((r) => r.status !== 200);
    expect(losers.map((r) => [r.status, r.body.error])).toEqual([[400, 'invalid_grant']]);
    // The winner holds a dead token: the concurrent reuse revoked the family.
    const next = await tokenRequest(b.app, b.config, {
      grant_type: 'refresh_token',
      refresh_token: winners[0]!.body.refresh_token!,
    });
    expect(next.status).toBe(400);
    expect(next.body.error).toBe('invalid_grant');
  });
});
