import { sql } from 'kysely';
import type { Db } from '../../../../db/database.ts';

/** Notes and calendar events of the built-in services. Every query names the owner. */

const now = () => new Date().toISOString();
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function createNote(db: Db, userId: number, title: string, body: string) {
  const ts = now();
  return db.kysely
    .insertInto('notes')
    .values({ user_id: userId, title, body, created_at: ts, updated_at: ts })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listNotes(db: Db, userId: number, limit: number) {
  return db.kysely
    .selectFrom('notes')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function searchNotes(db: Db, userId: number, query: string, limit: number) {
  const pattern = likePattern(query);
  return db.kysely
    .selectFrom('notes')
    .selectAll()
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.or([
        eb(sql`lower(title)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(body)`, 'like', sql`${pattern} escape '\\'`),
      ]),
    )
    .orderBy('updated_at', 'desc')
    .limit(limit)
    .execute();
}

export async function findNote(db: Db, userId: number, id: number) {
  return db.kysely
    .selectFrom('notes')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function updateNote(
  db: Db,
  userId: number,
  id: number,
  values: { title?: string; body?: string },
) {
  return db.kysely
    .updateTable('notes')
    .set({ ...values, updated_at: now() })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteNote(db: Db, userId: number, id: number) {
  const result = await db.kysely
    .deleteFrom('notes')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export interface EventValues {
  title: string;
  description: string;
  location: string;
  starts_at: string;
  ends_at: string;
}

export async function createEvent(db: Db, userId: number, values: EventValues) {
  const ts = now();
  return db.kysely
    .insertInto('calendar_events')
    .values({ user_id: userId, ...values, created_at: ts, updated_at: ts })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Events overlapping [from, to) (either bound optional), earliest first. */
export async function listEvents(
  db: Db,
  userId: number,
  range: { from?: string; to?: string },
  limit: number,
) {
  let query = db.kysely.selectFrom('calendar_events').selectAll().where('user_id', '=', userId);
  if (range.from) query = query.where('ends_at', '>', range.from);
  if (range.to) query = query.where('starts_at', '<', range.to);
  return query.orderBy('starts_at').orderBy('id').limit(limit).execute();
}

export async function searchEvents(db: Db, userId: number, text: string, limit: number) {
  const pattern = likePattern(text);
  return db.kysely
    .selectFrom('calendar_events')
    .selectAll()
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.or([
        eb(sql`lower(title)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(description)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(location)`, 'like', sql`${pattern} escape '\\'`),
      ]),
    )
    .orderBy('starts_at')
    .limit(limit)
    .execute();
}

export async function findEvent(db: Db, userId: number, id: number) {
  return db.kysely
    .selectFrom('calendar_events')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function updateEvent(db: Db, userId: number, id: number, values: Partial<EventValues>) {
  return db.kysely
    .updateTable('calendar_events')
    .set({ ...values, updated_at: now() })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteEvent(db: Db, userId: number, id: number) {
  const result = await db.kysely
    .deleteFrom('calendar_events')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
