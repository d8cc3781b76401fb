import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';

/** Every object of a schema, per table, in the words the database itself uses for it. */
export type SchemaDescription = Record<string, Record<string, string>>;

/**
 * The schema as the database reports it: on SQLite each entry of `sqlite_master` (its type and the
 * SQL it keeps); on PostgreSQL each column (type, nullability, default), constraint
 * (`pg_get_constraintdef`) and index (`indexdef`) of the public schema. Tables in name order,
 * columns in their order, constraints and indexes by name.
 */
export async function describeSchema(db: Db): Promise<SchemaDescription> {
  const schema: SchemaDescription = {};
  const add = (table: string, key: string, value: string) => ((schema[table] ??= {})[key] = value);
  if (db.dialect === 'sqlite') {
    const { rows } = await sql<{ type: string; name: string; tbl_name: string; sql: string | null }>`
      select type, name, tbl_name, sql from sqlite_master order by tbl_name, type desc, name`.execute(
      db.kysely,
    );
    for (const row of rows) add(row.tbl_name, `${row.type} ${row.name}`, row.sql ?? '(implicit)');
    return schema;
  }
  const columns = await sql<{ table: string; name: string; type: string; nullable: string; default: string }>`
    select table_name as table, column_name as name, data_type as type, is_nullable as nullable,
      column_default as default
    from information_schema.columns where table_schema = 'public'
    order by table_name, ordinal_position`.execute(db.kysely);
  for (const c of columns.rows) {
    const notNull = c.nullable === 'NO' ? ' not null' : '';
    add(
      c.table,
      `column ${c.name}`,
      `${c.type}${notNull}${c.default === null ? '' : ` default ${c.default}`}`,
    );
  }
  const constraints = await sql<{ table: string; name: string; definition: string }>`
    select rel.relname as table, con.conname as name, pg_get_constraintdef(con.oid) as definition
    from pg_constraint con
    join pg_class rel on rel.oid = con.conrelid
    join pg_namespace ns on ns.oid = rel.relnamespace
    where ns.nspname = 'public'
    order by rel.relname, con.conname`.execute(db.kysely);
  for (const c of constraints.rows) add(c.table, `constraint ${c.name}`, c.definition);
  const indexes = await sql<{ table: string; name: string; definition: string }>`
    select tablename as table, indexname as name, indexdef as definition
    from pg_indexes where schemaname = 'public'
    order by tablename, indexname`.execute(db.kysely);
  for (const i of indexes.rows) add(i.table, `index ${i.name}`, i.definition);
  return Object.fromEntries(Object.entries(schema).sort(([a], [b]) => (a < b ? -1 : 1)));
}
