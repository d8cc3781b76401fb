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

/** Inserts an agent with no tools for the user, and returns its id. */
export async function createAgent(db: Db, userId: number, name: string): Promise<number> {
  const ts = new Date().toISOString();
  const row = await db.kysely
    .insertInto('agents')
    .values({
      user_id: userId,
      name,
      description: `${name} agent`,
      guidelines: null,
      created_at: ts,
      updated_at: ts,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
