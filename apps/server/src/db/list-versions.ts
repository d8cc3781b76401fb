import { sql, type Kysely } from 'kysely';
import { compiledOnce } from './compiled.ts';
import type { Database } from './schema.ts';

/**
 * The agent list's version per user (`list_versions`, migration 0033; docs/architecture.md, "The
 * agent list from memory"). Every write that changes what a user's agent list shows raises it in
 * the write's own transaction: the agents module (an agent and its attached tools), the services
 * module (whether a connection is active: "needs reconnecting") and the tools module (the names,
 * descriptions and logos of services and actions). An instance keeps the list it built under the
 * version it read before building it, and learns the current one with one primary-key read, so
 * every instance sees a write as soon as it commits: no signal has to reach it first.
 */

/** Raises the list version of each user named, in the caller's transaction. */
export async function bumpListVersions(trx: Kysely<Database>, userIds: Iterable<number>) {
  // In id order, so two transactions that raise the same users lock their rows in one order
  // (PostgreSQL), and never wait on each other in a cycle.
  const ids = [...new Set(userIds)].sort((a, b) => a - b);
  if (!ids.length) return;
  await trx
    .insertInto('list_versions')
    .values(ids.map((id) => ({ user_id: id, version: 1 })))
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet((eb) => ({ version: eb('list_versions.version', '+', 1) })),
    )
    .execute();
}

/**
 * Raises every user's list version (a change to the shared catalog, which any user's agents may
 * show). Users without a row get one, so a list kept at version 0 is stale too. Rare: a catalog
 * sync that changed something, or a provider's actions listed again with changes.
 */
export async function bumpEveryListVersion(trx: Kysely<Database>) {
  await trx
    .insertInto('list_versions')
    .columns(['user_id', 'version'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select(['id', sql.lit(1).as('version')])
        // SQLite needs a WHERE in INSERT ... SELECT ... ON CONFLICT to tell the clauses apart.
        .where(sql<boolean>`true`)
        .orderBy('id'),
    )
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet((eb) => ({ version: eb('list_versions.version', '+', 1) })),
    )
    .execute();
}

/**
 * Runs `work` in a transaction: `k`'s own when it is one already (a write that commits with the
 * caller's), else a new one, so a write and the version it raises commit together.
 */
export function inTransaction<T>(k: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>) {
  return k.isTransaction ? work(k) : k.transaction().execute(work);
}

/** The user's current list version (0 before any write), one primary-key read compiled once. */
export function listVersionReader(k: Kysely<Database>) {
  const read = compiledOnce(
    k,
    (userId: number) => k.selectFrom('list_versions').select('version').where('user_id', '=', userId),
    -1,
  );
  return async (userId: number): Promise<number> => Number((await read(userId))[0]?.version ?? 0);
}
