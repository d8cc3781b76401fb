import type { Db } from '../db/database.ts';
import type { Vault } from './vault.ts';

/**
 * A secret every instance must share, kept in the `settings` table sealed by the vault: read as it
 * is, or created once. When instances start together, the insert that loses the race does nothing
 * and the read-back returns the winner's value, so all of them end up with the same secret.
 */
export async function loadOrCreateSealedSetting<T>(
  db: Db,
  vault: Vault,
  key: string,
  create: () => T | Promise<T>,
): Promise<T> {
  const read = () =>
    db.kysely.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  let row = await read();
  if (!row) {
    const value = vault.seal(JSON.stringify(await create()));
    await db.kysely
      .insertInto('settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    row = await read();
  }
  if (!row) throw new Error(`The ${key} setting could not be stored`);
  return JSON.parse(vault.open(row.value)) as T;
}

/** Replaces an existing sealed setting's value (a key rotation); the row must already exist. */
export async function replaceSealedSetting(db: Db, vault: Vault, key: string, value: unknown) {
  await db.kysely
    .updateTable('settings')
    .set({ value: vault.seal(JSON.stringify(value)) })
    .where('key', '=', key)
    .execute();
}
