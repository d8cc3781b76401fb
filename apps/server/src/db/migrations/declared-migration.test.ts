import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { declaredMigration } from './declared-migration.ts';

const inMemory = () =>
  new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });

const schemaOf = async (db: Kysely<unknown>) =>
  (await sql<{ name: string; sql: string }>`select name, sql from sqlite_master order by name`.execute(db))
    .rows;

describe('declared migrations', () => {
  it('refuses a file that is not in the format, naming the file and the place', () => {
    const misspelt = {
      note: 'n',
      steps: [{ createTable: 't', columns: { a: { type: 'text', notnull: true } } }],
    };
    expect(() => declaredMigration('0099-misspelt', misspelt, 'sqlite')).toThrow(
      /Migration 0099-misspelt: .*Unrecognized key: "notnull"[\s\S]*steps\[0\]\.columns\.a/,
    );
  });

  it('drops indexes and columns of an existing table, then adds columns and indexes', async () => {
    const db = inMemory();
    const file = (steps: unknown[]) => ({ note: 'n', steps });
    await declaredMigration(
      'create',
      file([
        {
          createTable: 'things',
          columns: { id: { type: 'serial', primaryKey: true }, old: { type: 'text' } },
          indexes: [{ name: 'things_old_idx', columns: ['old'] }],
        },
      ]),
      'sqlite',
    ).up(db);
    await declaredMigration(
      'change',
      file([
        {
          table: 'things',
          dropIndexes: ['things_old_idx'],
          dropColumns: ['old'],
          addColumns: { label: { type: 'text', notNull: true, default: '' }, size: { type: 'integer' } },
          indexes: [
            { name: 'things_label_idx', columns: ['label'], unique: true, where: ['size', 'is not', null] },
          ],
        },
      ]),
      'sqlite',
    ).up(db);
    expect(await schemaOf(db)).toEqual([
      { name: 'sqlite_sequence', sql: 'CREATE TABLE sqlite_sequence(name,seq)' },
      {
        name: 'things',
        sql: `CREATE TABLE "things" ("id" integer primary key autoincrement, "label" text default '' not null, "size" integer)`,
      },
      {
        name: 'things_label_idx',
        sql: 'CREATE UNIQUE INDEX "things_label_idx" on "things" ("label") where "size" is not null',
      },
    ]);
    await db.destroy();
  });

  it('runs a dialect-only statement on its own database only, and stores bytes in a blob column', async () => {
    const db = inMemory();
    await declaredMigration(
      'dialects',
      {
        note: 'n',
        steps: [
          {
            createTable: 'files',
            columns: { id: { type: 'text', primaryKey: true }, bytes: { type: 'blob' } },
          },
          {
            sqlOn: {
              sqlite: 'create index files_sqlite on files (id)',
              postgres: 'create index files_pg on files (id)',
            },
          },
          { sqlOn: { postgres: 'create index files_pg_only on files (bytes)' } },
        ],
      },
      'sqlite',
    ).up(db);
    expect((await schemaOf(db)).map((r) => r.name)).toEqual([
      'files',
      'files_sqlite',
      'sqlite_autoindex_files_1',
    ]);
    await db.destroy();
  });
});
