import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  type PostgresPool,
  type PostgresPoolClient,
  type SqliteDatabase as KyselySqliteDatabase,
} from 'kysely';
import type pg from 'pg';
import type { Config } from '../config.ts';
import { loadPg } from './pg-driver.ts';
import { traceQueries } from '../telemetry/database.ts';
import { tracingOn } from '../telemetry/tracing.ts';
import type { Database } from './schema.ts';
import { inProcessSignals, postgresSignals, type Signals } from './signals.ts';
import { isUnanswered, watchAnswers, type AnswerWatch } from './unanswered.ts';

/**
 * How long after `statement_timeout` the client gives up on a query itself: the server ends a
 * query that runs too long, and answers, well within this; a server that answers nothing (frozen,
 * cut off) is left after it. docs/deployment.md adds it into a request's bound.
 */
export const QUERY_TIMEOUT_MARGIN_MS = 1_000;

export type Dialect = 'sqlite' | 'postgres';

/** The connection pool as a scrape sees it (PostgreSQL only: SQLite has one connection). */
export interface PoolStats {
  /** DATABASE_POOL_SIZE: the most connections this instance opens for queries. */
  size: number;
  /** Connections checked out by a request or a background job now. */
  inUse: number;
  /** Open connections nobody holds. */
  idle: number;
  /** Checkouts waiting for a connection (all `size` are in use). */
  waiting: number;
}

/** A span per statement once tracing was started (before the database is opened); else no log at all. */
const queryLog = (system: 'sqlite' | 'postgresql') => (tracingOn() ? { log: traceQueries(system) } : {});

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  /**
   * Hears connections that fail outside any query (a PostgreSQL restart, a killed backend). They
   * are never fatal: the pool replaces the connection and the next query reconnects.
   */
  onConnectionError(listener: (err: Error) => void): void;
  /**
   * Says the database left a probe sent at `since` (epoch ms) unanswered for longer than a live one
   * takes (the readiness check's write, 1 s): unless it answered anything else since, requests stop
   * waiting for it until it answers again (unanswered.ts).
   */
  reportUnanswered(since: number): void;
  /** Signals between instances on this database (LISTEN/NOTIFY; in-process on SQLite). */
  signals: Signals;
  /** The pool's use now, for the metrics; undefined on SQLite. */
  poolStats(): PoolStats | undefined;
  /**
   * Moves SQLite's write-ahead log into the database file and empties it, so rows just deleted
   * leave no readable copy in the log (P1). Nothing to do on PostgreSQL.
   */
  checkpoint(): Promise<void>;
  close(): Promise<void>;
}

type ErrorListeners = Set<(err: Error) => void>;

export function openDatabase(database: Config['database']): Db {
  const errorListeners: ErrorListeners = new Set();
  const report = (err: Error) => {
    for (const listener of errorListeners) listener(err);
  };
  if (database.kind === 'postgres') {
    const pool = new (loadPg().Pool)({
      connectionString: database.url,
      max: database.poolSize,
      connectionTimeoutMillis: database.acquireTimeoutMs,
      // Ends a query that runs too long on a live server...
      statement_timeout: database.statementTimeoutMs,
      // ...and, on our side, one whose server stopped answering (frozen, or cut off by the
      // network), which statement_timeout cannot reach.
      query_timeout: database.statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS,
      keepAlive: true,
    });
    // An idle client that loses its server emits 'error' on the pool, and a checked-out one on
    // itself (pg-pool removes its own listener while a client is out). Both must be heard, or
    // the process dies on an unhandled 'error' whenever PostgreSQL restarts.
    pool.on('error', report);
    pool.on('connect', (client) => client.on('error', report));
    // The watch's probe goes to the pool itself (not through the watch, which refuses checkouts
    // while the database answers nothing): a `select 1`, one at a time.
    const watch = watchAnswers(async () => {
      const client = await pool.connect();
      try {
        await client.query('select 1');
        client.release();
      } catch (err) {
        client.release(err as Error);
        // An error with a severity is the server's own answer: it is back, whatever it said.
        if (!('severity' in (err as Error))) throw err;
      }
    });
    const kysely = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: discardingBroken(pool, watch) }),
      ...queryLog('postgresql'),
    });
    const signals = postgresSignals(
      // LISTEN needs a session of its own: through a transaction pooler (PgBouncer), the direct URL.
      database.listenUrl ?? database.url,
      async (channel, payload, within) =>
        void (await sql`select pg_notify(${channel}, ${payload})`.execute(within ?? kysely)),
      report,
    );
    const poolStats = (): PoolStats => ({
      size: database.poolSize,
      inUse: pool.totalCount - pool.idleCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    });
    return wrap(kysely, 'postgres', errorListeners, signals, poolStats, watch);
  }

  fs.mkdirSync(path.dirname(database.file), { recursive: true });
  const sqlite = new SqliteDatabase(database.file, { timeout: 5_000 });
  sqlite.pragma('journal_mode = WAL');
  // FULL makes every acknowledged commit durable across power loss, not only process crashes.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    ...queryLog('sqlite'),
  });
  // A local file has no server to stop answering: its busy timeout bounds a wait.
  return wrap(kysely, 'sqlite', errorListeners, inProcessSignals(), () => undefined);
}

/**
 * Three things pg-pool does not do for Kysely. Kysely releases a client without saying whether it
 * broke, so a client whose query timed out (its server frozen) would go to the next request: this
 * destroys such a client on release. An idle client whose backend was killed or restarted is
 * only found dead when a request uses it: when that happens on the checkout's first statement and
 * the statement is one that did nothing on a dead connection (BEGIN or a read, or any statement the
 * server refused with a shutdown error), it runs again once on a new connection, so the request
 * succeeds instead of failing for a connection it never really used. A statement that timed out is
 * not run again: the server did not answer, and waiting for it a second time would double the
 * request's bound (docs/deployment.md). And while the server answers nothing, checkouts are
 * refused at once instead of each waiting for it (`watch`, unanswered.ts).
 */
function discardingBroken(pool: pg.Pool, watch: AnswerWatch): PostgresPool {
  const connect = async () => {
    const since = Date.now();
    try {
      return await pool.connect();
    } catch (err) {
      if (isUnanswered(err as Error)) watch.unanswered(since);
      throw err;
    }
  };
  const checkout = (first: pg.PoolClient): PostgresPoolClient => {
    let client: pg.PoolClient | undefined = first;
    let fresh = true;
    let broken: Error | undefined;
    const run = (connection: pg.PoolClient, text: string, parameters: ReadonlyArray<unknown>) => {
      const since = Date.now();
      return connection.query(text, parameters as unknown[]).then(
        (result) => {
          watch.answered();
          return result;
        },
        (err: Error) => {
          if (isUnanswered(err)) watch.unanswered(since);
          // An error with a severity is the server's own answer (pg's DatabaseError).
          else if ('severity' in err) watch.answered();
          if (isBrokenConnection(err)) broken = err;
          throw err;
        },
      );
    };
    // Only the (text, parameters) form: Cadre streams no query through a cursor.
    const wrapper = {
      async query(text: string, parameters: ReadonlyArray<unknown>) {
        const first = fresh;
        fresh = false;
        if (!client) throw new Error('The connection was released');
        // Nothing more on a connection that broke (Kysely's ROLLBACK after the failed statement
        // would wait out a frozen server's timeout a second time); it is destroyed on release.
        if (broken) throw broken;
        try {
          return await run(client, text, parameters);
        } catch (err) {
          if (!first || !broken || isUnanswered(broken)) throw err;
          if (!(SAFE_TO_REPEAT.test(text) || refusedByShutdown(broken))) throw err;
          client.release(broken);
          broken = undefined;
          // Held by nobody until the new one comes: if it does not (the server is down or frozen),
          // Kysely's release of this checkout must not release the broken client a second time.
          client = undefined;
          client = await connect();
          return run(client, text, parameters);
        }
      },
      release() {
        const err = broken;
        broken = undefined;
        client?.release(err);
        client = undefined;
      },
    };
    return wrapper as unknown as PostgresPoolClient;
  };
  return {
    async connect() {
      watch.admit();
      return checkout(await connect());
    },
    end: () => {
      watch.close();
      return pool.end();
    },
  };
}

/** Statements that change nothing by themselves, so running one again cannot do anything twice. */
const SAFE_TO_REPEAT = /^\s*(begin|start transaction|select)\b/i;

/** PostgreSQL's class 57P (admin shutdown, crash shutdown, cannot connect now): nothing was run. */
const refusedByShutdown = (err: Error) => /^57P0[123]$/.test((err as { code?: string }).code ?? '');

/** A query error after which the connection cannot be trusted with another query. */
const isBrokenConnection = (err: Error) =>
  err.message === 'Query read timeout' ||
  refusedByShutdown(err) ||
  /Connection terminated|not queryable/.test(err.message);

/** How many prepared statements the SQLite connection keeps; Cadre's queries are far fewer. */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query it runs; preparing is the largest per-query cost on SQLite for the
 * API's short queries. This keeps the prepared statements by SQL text (least recently used out
 * first), so a hot query is prepared once. Reusing a statement is safe: Kysely's SQLite driver
 * runs one query at a time on its single connection, and SQLite re-prepares a statement itself
 * when a migration changes the schema under it.
 */
export function withStatementCache(
  sqlite: SqliteDatabase.Database,
  max = STATEMENT_CACHE_SIZE,
): KyselySqliteDatabase {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      // SQLite rolls a transaction back by itself when a statement fails with SQLITE_FULL or an
      // I/O error; Kysely's ROLLBACK then fails with "no transaction is active" and that error
      // would replace the real one. A rollback with nothing to roll back is a no-op instead.
      if (text === 'rollback' && !sqlite.inTransaction) return noop(sqlite);
      let statement = cache.get(text);
      if (statement) {
        // Most recently used last: Map keeps insertion order.
        cache.delete(text);
      } else {
        statement = sqlite.prepare(text);
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}

const noop = (sqlite: SqliteDatabase.Database) => sqlite.prepare('select 1 where 0');

function wrap(
  kysely: Kysely<Database>,
  dialect: Dialect,
  errorListeners: ErrorListeners,
  signals: Signals,
  poolStats: () => PoolStats | undefined,
  watch?: AnswerWatch,
): Db {
  return {
    kysely,
    dialect,
    poolStats,
    reportUnanswered: (since) => watch?.unanswered(since),
    async ping() {
      await sql`select 1`.execute(kysely);
    },
    onConnectionError: (listener) => void errorListeners.add(listener),
    signals,
    async checkpoint() {
      if (dialect === 'sqlite') await sql`pragma wal_checkpoint(TRUNCATE)`.execute(kysely);
    },
    async close() {
      await signals.close();
      await kysely.destroy();
    },
  };
}
