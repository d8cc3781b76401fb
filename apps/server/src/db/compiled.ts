import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * A hot query built and compiled by Kysely once, then run with new values: Kysely otherwise builds
 * its tree and writes the SQL again on every call, which costs the busiest routes (the token check
 * of every request, the list calls) more than the database does. `build` is called once with
 * `standIns`, which must come out as the query's parameters, each once and in order (so a literal
 * in the SQL can never be one of them); the returned function runs the same SQL with its own
 * arguments in their place.
 */
export function compiledOnce<Row, Args extends unknown[]>(
  kysely: Kysely<Database>,
  build: (...args: Args) => Compilable<Row>,
  ...standIns: Args
): (...args: Args) => Promise<Row[]> {
  const { sql, parameters } = build(...standIns).compile();
  if (parameters.length !== standIns.length || parameters.some((value, i) => value !== standIns[i]))
    throw new Error(`A query compiled once must take exactly its arguments as parameters: ${sql}`);
  return async (...args) => (await kysely.executeQuery<Row>(CompiledQuery.raw(sql, args))).rows;
}
