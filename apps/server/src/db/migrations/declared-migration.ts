import {
  sql,
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
  type Kysely,
  type Migration,
} from 'kysely';
import { z } from 'zod';
import type { Dialect } from '../database.ts';

/*
 * A migration file (`NNNN-name.json`) is `{ "note": why, "steps": [...] }`; the zod schema below is
 * its exact grammar. The steps run in order, each one of:
 * - `createTable`: its `columns` (name -> definition, in table order), an optional `primaryKey` and
 *   `unique` keys (`{ name, columns }`), then its `indexes`;
 * - `table`: an existing table: drops its `dropIndexes`, then its `dropColumns`, adds `addColumns`
 *   one statement each (SQLite alters one column at a time), then creates its `indexes`;
 * - `sql`: one statement run as written on both databases, for moving data or what the builder
 *   would word differently;
 * - `sqlOn`: `{ sqlite?, postgres? }`, a statement for each database named (nothing runs on the
 *   other), for what exists on one of them alone: an FTS5 table and its triggers, a tsvector column.
 * Column type `blob` holds bytes (`bytea` on PostgreSQL). Column type `real` is a floating-point number (`double precision` on PostgreSQL). Column type `serial` is the auto-increment id, the one difference between the dialects (`serial`
 * on PostgreSQL, `integer primary key autoincrement` on SQLite). An index's `where` is
 * `[column, operator, value]`. Any object may carry a `note`: the comment JSON has not.
 */
const note = z.string().optional();
const identifier = z.string().regex(/^[a-z][a-z0-9_]*$/);
const columnSchema = z.strictObject({
  type: z.enum(['text', 'integer', 'bigint', 'real', 'blob', 'serial']),
  notNull: z.literal(true).optional(),
  primaryKey: z.literal(true).optional(),
  unique: z.literal(true).optional(),
  default: z.union([z.string(), z.number()]).optional(),
  references: z
    .string()
    .regex(/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/)
    .optional(),
  onDelete: z.enum(['cascade', 'set null', 'restrict']).optional(),
  note,
});
const columns = z.record(identifier, columnSchema);
const key = z.strictObject({ name: identifier, columns: z.array(identifier).min(1), note });
const indexSchema = key.extend({
  unique: z.literal(true).optional(),
  where: z
    .tuple([identifier, z.enum(['is', 'is not', '=']), z.union([z.null(), z.string(), z.number()])])
    .optional(),
});
const step = z.union([
  z.strictObject({
    createTable: identifier,
    columns,
    primaryKey: key.optional(),
    unique: z.array(key).optional(),
    indexes: z.array(indexSchema).optional(),
    note,
  }),
  z.strictObject({
    table: identifier,
    dropIndexes: z.array(identifier).optional(),
    dropColumns: z.array(identifier).optional(),
    addColumns: columns.optional(),
    indexes: z.array(indexSchema).optional(),
    note,
  }),
  z.strictObject({ sql: z.string(), note }),
  z.strictObject({
    sqlOn: z.strictObject({ sqlite: z.string().optional(), postgres: z.string().optional() }),
    note,
  }),
]);
const migrationFile = z.strictObject({ note: z.string(), steps: z.array(step).min(1) });

/**
 * The Kysely migration a migration file declares, for one dialect. Migrations use `Kysely<any>` on
 * purpose: they describe the schema at their point in history, not the current `Database` type.
 */
export function declaredMigration(name: string, file: unknown, dialect: Dialect): Migration {
  const parsed = migrationFile.safeParse(file);
  if (!parsed.success) throw new Error(`Migration ${name}: ${z.prettifyError(parsed.error)}`);
  const { steps } = parsed.data;
  const define = (c: z.infer<typeof columnSchema>) => (b: ColumnDefinitionBuilder) => {
    if (c.primaryKey) b = b.primaryKey();
    if (c.type === 'serial' && dialect === 'sqlite') b = b.autoIncrement();
    if (c.notNull) b = b.notNull();
    if (c.unique) b = b.unique();
    if (c.default !== undefined) b = b.defaultTo(c.default);
    if (c.references) b = b.references(c.references);
    return c.onDelete ? b.onDelete(c.onDelete) : b;
  };
  // `real` is 8 bytes on SQLite; PostgreSQL's `real` is 4, so 0.7 would read back as 0.699999988.
  const type = (c: z.infer<typeof columnSchema>) =>
    c.type === 'serial' && dialect === 'sqlite'
      ? 'integer'
      : c.type === 'real' && dialect === 'postgres'
        ? 'double precision'
        : c.type === 'blob' && dialect === 'postgres'
          ? 'bytea'
          : c.type;
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      for (const s of steps) {
        if ('sql' in s) {
          await sql.raw(s.sql).execute(db);
          continue;
        }
        if ('sqlOn' in s) {
          const statement = s.sqlOn[dialect];
          if (statement !== undefined) await sql.raw(statement).execute(db);
          continue;
        }
        const table = 'table' in s ? s.table : s.createTable;
        if ('createTable' in s) {
          let create: CreateTableBuilder<string, string> = db.schema.createTable(table);
          for (const [column, c] of Object.entries(s.columns))
            create = create.addColumn(column, type(c), define(c));
          if (s.primaryKey) create = create.addPrimaryKeyConstraint(s.primaryKey.name, s.primaryKey.columns);
          for (const u of s.unique ?? []) create = create.addUniqueConstraint(u.name, u.columns);
          await create.execute();
        } else {
          for (const index of s.dropIndexes ?? []) await db.schema.dropIndex(index).execute();
          for (const column of s.dropColumns ?? [])
            await db.schema.alterTable(table).dropColumn(column).execute();
          for (const [column, c] of Object.entries(s.addColumns ?? {}))
            await db.schema.alterTable(table).addColumn(column, type(c), define(c)).execute();
        }
        for (const i of s.indexes ?? []) {
          let create = db.schema.createIndex(i.name).on(table).columns(i.columns);
          if (i.unique) create = create.unique();
          if (i.where) create = create.where(sql.ref(i.where[0]), i.where[1], i.where[2]);
          await create.execute();
        }
      }
    },
  };
}
