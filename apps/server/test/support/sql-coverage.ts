import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { statementShape } from './sql-shape.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    sqlCoverageDir: string;
  }
}

/**
 * Setup file of the server-sqlite project: records the shape of every SQL statement the server's
 * own code runs while a test file runs (not the test's own queries for its assertions), and
 * writes the set for `sql-coverage-check.ts`, which reads them at the end of the run.
 *
 * Kysely runs every statement on SQLite through a better-sqlite3 Statement's `all` or `run`, so
 * wrapping those two once sees them all. A statement is the server's when the call came through a
 * file under `apps/server/src` other than the database layer itself.
 */
const SERVER_SOURCE = `${path.resolve(import.meta.dirname, '../../src')}/`;
const DATABASE_LAYER = `${SERVER_SOURCE}db/database.ts`;
const RECORDER = Symbol.for('cadre.sqlCoverage');

type Recorder = (source: string) => void;
const slot = globalThis as { [RECORDER]?: Recorder };

function fromServerCode(): boolean {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 80;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  return stack.split('\n').some((line) => line.includes(SERVER_SOURCE) && !line.includes(DATABASE_LAYER));
}

const probe = new SqliteDatabase(':memory:');
const statementPrototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<
  'all' | 'run',
  (this: { source: string }, ...args: unknown[]) => unknown
> & { [RECORDER]?: true };
probe.close();
// With `isolate: false` this file runs once per test file in the same process: wrap only once.
if (!statementPrototype[RECORDER]) {
  for (const method of ['all', 'run'] as const) {
    const original = statementPrototype[method];
    statementPrototype[method] = function (...args: unknown[]) {
      slot[RECORDER]?.(this.source);
      return original.apply(this, args);
    };
  }
  statementPrototype[RECORDER] = true;
}

const seen = new Set<string>();
beforeAll(() => {
  seen.clear();
  // The stack is read only until a statement is known to be the server's.
  slot[RECORDER] = (source) => {
    const shape = statementShape(source);
    if (!seen.has(shape) && fromServerCode()) seen.add(shape);
  };
});
afterAll(() => {
  slot[RECORDER] = undefined;
  const file = path.relative(path.resolve(import.meta.dirname, '../..'), expect.getState().testPath!);
  fs.writeFileSync(
    path.join(inject('sqlCoverageDir'), `${file.replaceAll('/', '__')}.json`),
    JSON.stringify({ file, statements: [...seen] }),
  );
});
