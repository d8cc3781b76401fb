import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
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
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return wrap(kysely, 'sqlite');
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
