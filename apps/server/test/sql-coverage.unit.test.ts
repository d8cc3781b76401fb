import { describe, expect, it } from 'vitest';
import { sqliteOnlyStatements } from './support/sql-coverage-check.ts';
import { statementShape } from './support/sql-shape.ts';

describe('which integration files may skip PostgreSQL', () => {
  it('folds runs of placeholders, so lists and multi-row inserts of any length are one shape', () => {
    expect(statementShape('select "id" from "agents" where "id" in (?, ?, ?)')).toBe(
      statementShape('select "id"\n  from "agents" where "id" in (?,?)'),
    );
    expect(statementShape('insert into "t" ("a", "b") values (?, ?), (?, ?), (?, ?)')).toBe(
      statementShape('insert into "t" ("a", "b") values (?, ?), (?, ?)'),
    );
    expect(statementShape('select 1 where "a" = ?')).not.toBe(statementShape('select 1 where "b" = ?'));
  });

  it('names each SQLite-only file that ran a statement no file on PostgreSQL ran', () => {
    const recorded = [
      { file: 'test/both.int.test.ts', statements: ['select a', 'select b'] },
      { file: 'test/covered.int.test.ts', statements: ['select a'] },
      { file: 'test/uncovered.int.test.ts', statements: ['select b', 'select c'] },
    ];
    expect(
      sqliteOnlyStatements(recorded, ['test/covered.int.test.ts', 'test/uncovered.int.test.ts']),
    ).toEqual([{ file: 'test/uncovered.int.test.ts', statements: ['select c'] }]);
    expect(sqliteOnlyStatements(recorded, ['test/covered.int.test.ts'])).toEqual([]);
  });
});
