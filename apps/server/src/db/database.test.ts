import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './database.ts';

describe('SQLite statement cache', () => {
  const open = () => {
    const sqlite = new SqliteDatabase(':memory:');
    let prepared = 0;
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((text: string) => {
      prepared++;
      return prepare(text);
    }) as typeof sqlite.prepare;
    return { sqlite, prepared: () => prepared };
  };

  it('prepares a query once and answers from the same statement afterwards', () => {
    const { sqlite, prepared } = open();
    const db = withStatementCache(sqlite);
    db.prepare('create table t (n integer)').run([]);
    const insert = 'insert into t (n) values (?)';
    for (let n = 1; n <= 3; n++) db.prepare(insert).run([n]);
    expect(db.prepare('select n from t order by n').all([])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(db.prepare('select n from t order by n').all([])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(prepared()).toBe(3);
    db.close();
  });

  it('drops the least recently used statement when full', () => {
    const { sqlite, prepared } = open();
    const db = withStatementCache(sqlite, 2);
    db.prepare('select 1').all([]);
    db.prepare('select 2').all([]);
    db.prepare('select 1').all([]); // now "select 2" is the least recently used
    db.prepare('select 3').all([]);
    expect(prepared()).toBe(3);
    db.prepare('select 1').all([]);
    expect(prepared()).toBe(3);
    db.prepare('select 2').all([]);
    expect(prepared()).toBe(4);
    db.close();
  });

  it('keeps a cached statement working after the schema changes', () => {
    const db = withStatementCache(new SqliteDatabase(':memory:'));
    db.prepare('create table t (n integer)').run([]);
    db.prepare('insert into t (n) values (?)').run([7]);
    expect(db.prepare('select * from t').all([])).toEqual([{ n: 7 }]);
    db.prepare('alter table t add column m integer default 5').run([]);
    expect(db.prepare('select n from t').all([])).toEqual([{ n: 7 }]);
    db.close();
  });

  it('makes a ROLLBACK after SQLite already rolled back a no-op, so the real error is the one reported', () => {
    const sqlite = new SqliteDatabase(':memory:');
    const db = withStatementCache(sqlite);
    db.prepare('begin').run([]);
    db.prepare('rollback').run([]);
    // SQLite has ended the transaction by itself (as it does on SQLITE_FULL or an I/O error);
    // the driver's own ROLLBACK must not fail with "no transaction is active".
    expect(() => sqlite.prepare('rollback').run()).toThrow(/no transaction is active/);
    expect(() => db.prepare('rollback').run([])).not.toThrow();
    db.close();
  });
});
