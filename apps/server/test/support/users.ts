import type { Db } from '../../src/db/database.ts';

/** Inserts a user as sign-in would, and returns its id. */
export async function createUser(db: Db, name: string): Promise<number> {
  const ts = new Date().toISOString();
  const row = await db.kysely
    .insertInto('users')
    .values({
      issuer: 'https://issuer.test/',
      subject: `sub-${name}`,
      email: `${name}@example.test`,
      name,
      picture: null,
      created_at: ts,
      updated_at: ts,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
