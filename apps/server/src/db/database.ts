import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  type SqliteDatabase as KyselySqliteDatabase,
} from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import type { Database } from './schema.ts';

// COUNT(*) and bigint columns arrive as strings from pg by default; every such value Cadre stores
// (counters, epoch seconds) fits a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function openDatabase(database: Config['database']): Db {
  if (database.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: database.url,
      max: database.poolSize,
      connectionTimeoutMillis: 5_000,
    });
    // An idle client that loses its server emits 'error' on the pool; without a listener that
    // would crash the process. The next query reconnects, and health reports the outage.
    pool.on('error', () => {});
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return wrap(kysely, 'postgres');
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
  });
  return wrap(kysely, 'sqlite');
}

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

function wrap(kysely: Kysely<Database>, dialect: Dialect): Db {
  return {
    kysely,
    dialect,
    async ping() {
      await sql`select 1`.execute(kysely);
    },
    close: () => kysely.destroy(),
  };
}
