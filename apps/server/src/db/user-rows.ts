import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from './schema.ts';

/** The tables whose rows carry the user they belong to in `user_id`. */
export type UserTable = {
  [T in keyof Database]: Database[T] extends { user_id: unknown } ? T : never;
}[keyof Database];

/**
 * Deletes the user's rows from each table, in the order given (children before the rows they
 * reference); every user-data owner ends this way.
 */
export async function deleteUserRows(trx: Kysely<Database>, userId: number, tables: readonly UserTable[]) {
  for (const table of tables) await trx.deleteFrom(table).where('user_id', '=', userId).execute();
}

/** The user's rows of a table, for their export; the caller picks the columns. */
export function selectUserRows<T extends UserTable>(
  k: Kysely<Database>,
  table: T,
  userId: number,
): SelectQueryBuilder<Database, T, Record<never, never>> {
  // Kysely cannot narrow `where` on a table chosen by a type parameter; the cast restores the
  // caller's own table so its columns keep their types.
  return k.selectFrom(table as UserTable).where('user_id', '=', userId) as never;
}

/** Gives `to` the rows of `from` in each table (an account's agents handed over before its deletion). */
export async function moveUserRows(
  trx: Kysely<Database>,
  from: number,
  to: number,
  tables: readonly UserTable[],
) {
  for (const table of tables) {
    await trx
      .updateTable(table as 'agents')
      .set({ user_id: to })
      .where('user_id', '=', from)
      .execute();
  }
}
