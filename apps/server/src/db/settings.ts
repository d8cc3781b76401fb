import type { Kysely } from 'kysely';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';

/**
 * Workspace settings an admin changes in the console (DESIGN.md section 4): JSON values in rows of
 * `settings` under a `workspace.` key, read where they are used, so every instance sees a change
 * at its next read without a restart. Secrets go through security/sealed-setting.ts instead.
 */
export async function readSetting<T>(
  db: Pick<Db, 'kysely'>,
  key: `workspace.${string}`,
): Promise<T | undefined> {
  const row = await db.kysely
    .selectFrom('settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirst();
  return row === undefined ? undefined : (JSON.parse(row.value) as T);
}

/** Stores a setting's value, in the caller's transaction when given one. */
export async function writeSetting(kysely: Kysely<Database>, key: `workspace.${string}`, value: unknown) {
  const text = JSON.stringify(value);
  await kysely
    .insertInto('settings')
    .values({ key, value: text })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: text }))
    .execute();
}
