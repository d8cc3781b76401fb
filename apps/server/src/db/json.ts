import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type OrderByExpression,
  type RawBuilder,
} from 'kysely';
import { jsonBuildObject as postgresObject } from 'kysely/helpers/postgres';
import { jsonBuildObject as sqliteObject } from 'kysely/helpers/sqlite';
import type { Dialect } from './database.ts';
import type { Database } from './schema.ts';

/**
 * JSON built by the database, in either dialect. A read that only forwards rows to the client can
 * have the database write the response body itself: one string crosses the driver instead of a
 * row object per joined row, and nothing is regrouped or serialized again in JavaScript.
 */
export function jsonHelpers(dialect: Dialect) {
  const object = dialect === 'sqlite' ? sqliteObject : postgresObject;
  return {
    /** `{"key": value, ...}`; keys keep the order given. */
    object: <O extends Record<string, Expression<unknown>>>(fields: O) => object(fields),

    /**
     * The rows' values as one JSON array, in `orderBy` order; `[]`, never NULL, when there are no
     * rows. (SQLite's json_group_array already gives `[]`; PostgreSQL's json_agg gives NULL.)
     */
    arrayAgg<DB extends Database, TB extends keyof DB>(
      eb: ExpressionBuilder<DB, TB>,
      value: Expression<unknown>,
      orderBy: OrderByExpression<DB, TB, object>,
    ): RawBuilder<string> {
      if (dialect === 'sqlite')
        return sql<string>`${eb.fn.agg('json_group_array', [value]).orderBy(orderBy)}`;
      return sql<string>`coalesce(${eb.fn.agg('json_agg', [value]).orderBy(orderBy)}, '[]'::json)`;
    },

    /**
     * A scalar subquery that yields JSON, used as a value inside `object`. SQLite (3.54 on) drops
     * the JSON subtype at the subquery boundary, so without `json()` the value would be embedded
     * as a string; PostgreSQL keeps the `json` type.
     */
    subquery: (value: Expression<unknown>) => (dialect === 'sqlite' ? sql`json(${value})` : value),

    /**
     * A condition as a JSON boolean inside `object`: SQLite has no boolean type and would write
     * 0 or 1; PostgreSQL writes its boolean as true or false.
     */
    bool: (condition: Expression<unknown>) =>
      dialect === 'sqlite' ? sql`json(case when ${condition} then 'true' else 'false' end)` : condition,

    /**
     * JSON stored as text, embedded as JSON; `fallback` (JSON text, a constant written into the SQL
     * so cached statements keep their parameters) where the column is NULL.
     */
    parsed: (value: Expression<string | null>, fallback: string) =>
      dialect === 'sqlite'
        ? sql`json(coalesce(${value}, ${sql.lit(fallback)}))`
        : sql`coalesce(${value}, ${sql.lit(fallback)})::json`,

    /** The document as text, so the driver hands it over as it is instead of parsing it. */
    text: (value: Expression<string>) =>
      dialect === 'sqlite' ? sql<string>`${value}` : sql<string>`(${value})::text`,
  };
}

/** A JSON text column's value, or the text itself when it does not parse (exports show it as is). */
export function parseStoredJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
