import { createRequire } from 'node:module';
import type pg from 'pg';

let postgresDriver: typeof pg | undefined;

/**
 * The PostgreSQL driver, loaded when a PostgreSQL database is opened: a server on SQLite never
 * loads it. (`require`, as opening a database is synchronous and pg is a CommonJS package.)
 */
export function loadPg(): typeof pg {
  if (!postgresDriver) {
    postgresDriver = createRequire(import.meta.url)('pg') as typeof pg;
    // COUNT(*) and bigint columns arrive as strings from pg by default; every such value Cadre
    // stores (counters, epoch seconds) fits a JS number.
    postgresDriver.types.setTypeParser(postgresDriver.types.builtins.INT8, (value) => Number(value));
  }
  return postgresDriver;
}
