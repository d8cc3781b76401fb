import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, isTransactionConflict } from './unavailable.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('which database errors mean "unavailable, retry later"', () => {
  it('counts outages, timeouts, full disks and read-only databases', () => {
    const unavailable = [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('canceling statement due to statement timeout', '57014'),
      withCode('could not extend file: No space left on device', '53100'),
      withCode('cannot execute INSERT in a read-only transaction', '25006'),
      withCode('connection failure', '08006'),
      withCode('deadlock detected', '40P01'),
      withCode('could not serialize access due to concurrent update', '40001'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Query read timeout'),
      new Error('wrapped', { cause: withCode('read ECONNRESET', 'ECONNRESET') }),
    ];
    for (const err of unavailable) expect(isDatabaseUnavailable(err), err.message).toBe(true);
  });

  it('counts the errors better-sqlite3 really raises for a full or read-only database', () => {
    const sqlite = new SqliteDatabase(':memory:');
    sqlite.exec('create table t (x text)');
    sqlite.pragma('query_only = 1');
    let readOnly: unknown;
    try {
      sqlite.exec("insert into t values ('x')");
    } catch (err) {
      readOnly = err;
    }
    expect(isDatabaseUnavailable(readOnly)).toBe(true);
    sqlite.pragma('query_only = 0');
    const pages = sqlite.pragma('page_count', { simple: true }) as number;
    sqlite.pragma(`max_page_count = ${pages}`);
    let full: unknown;
    try {
      sqlite.prepare('insert into t values (?)').run('x'.repeat(20_000));
    } catch (err) {
      full = err;
    }
    expect((full as { code?: string }).code).toBe('SQLITE_FULL');
    expect(isDatabaseUnavailable(full)).toBe(true);
    sqlite.close();
  });

  it('does not count bugs or rule violations', () => {
    const notUnavailable = [
      withCode('duplicate key value violates unique constraint', '23505'),
      withCode('syntax error at or near "selec"', '42601'),
      withCode('UNIQUE constraint failed: agents.id', 'SQLITE_CONSTRAINT_PRIMARYKEY'),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      'a string',
      undefined,
    ];
    for (const err of notUnavailable) expect(isDatabaseUnavailable(err), String(err)).toBe(false);
  });
});

describe('which database errors mean "this transaction lost to another; run it again"', () => {
  it('counts deadlocks and serialization failures, also wrapped, and nothing else', () => {
    expect(isTransactionConflict(withCode('deadlock detected', '40P01'))).toBe(true);
    expect(isTransactionConflict(new Error('wrapped', { cause: withCode('serialize', '40001') }))).toBe(true);
    expect(isTransactionConflict(withCode('violates foreign key constraint', '23503'))).toBe(false);
    expect(isTransactionConflict(withCode('connection failure', '08006'))).toBe(false);
    expect(isTransactionConflict(new Error('deadlock detected'))).toBe(false);
  });
});
