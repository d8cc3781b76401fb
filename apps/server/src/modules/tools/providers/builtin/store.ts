import { sql, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../../../db/database.ts';
import { containsPattern } from '../../../../db/like.ts';
import type { Database } from '../../../../db/schema.ts';
import { z } from 'zod';
import { ToolError } from '../../provider.ts';
import { defineAction } from './define.ts';

/** Notes and calendar events of the built-in services. Every query names the owner. */

const now = () => new Date().toISOString();

/** Any of the columns contains the text, case-insensitively, with `%` and `_` taken literally. */
function containsText(columns: readonly string[], text: string) {
  const pattern = containsPattern(text.toLowerCase());
  const matches = columns.map((column) => sql`lower(${sql.ref(column)}) like ${pattern} escape '\\'`);
  return sql<boolean>`(${sql.join(matches, sql` or `)})`;
}

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
  return db.kysely
    .selectFrom('notes')
    .selectAll()
    .where('user_id', '=', userId)
    .where(containsText(['title', 'body'], query))
    .orderBy('updated_at', 'desc')
    .limit(limit)
    .execute();
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
  return db.kysely
    .selectFrom('calendar_events')
    .selectAll()
    .where('user_id', '=', userId)
    .where(containsText(['title', 'description', 'location'], text))
    .orderBy('starts_at')
    .limit(limit)
    .execute();
}

/**
 * One user's records of a table, by id: found, changed or deleted, or the tool's `not_found` error
 * naming the record ("There is no note 7").
 */
function ownedRecords<T extends 'notes' | 'calendar_events'>(table: T, noun: string) {
  type Row = Selectable<Database[T]>;
  // Kysely cannot narrow a table chosen by a type parameter; the queries run on the union and the
  // results are cast back to this table's row.
  const t = table as 'notes' | 'calendar_events';
  const notFound = (id: number) => new ToolError('not_found', `There is no ${noun} ${id}`);
  return {
    async get(db: Db, userId: number, id: number): Promise<Row> {
      const row = await db.kysely
        .selectFrom(t)
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) throw notFound(id);
      return row as Row;
    },
    async update(
      db: Db,
      userId: number,
      id: number,
      values: Omit<Updateable<Database[T]>, 'id'>,
    ): Promise<Row> {
      const row = await db.kysely
        .updateTable(t)
        .set({ ...values, updated_at: now() } as never)
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw notFound(id);
      return row as Row;
    },
    /** The tool that deletes one of these records by id. */
    deleteAction(action: { name: string; displayName: string; description: string; id: z.ZodNumber }) {
      return defineAction({
        ...action,
        effect: 'write',
        input: z.object({ id: action.id }),
        run: async ({ id }, ctx) => {
          await remove(ctx.db, ctx.userId, id);
          return { deleted: true, id };
        },
      });
    },
  };
  async function remove(db: Db, userId: number, id: number): Promise<void> {
    const result = await db.kysely
      .deleteFrom(t)
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound(id);
  }
}

export const ownNotes = ownedRecords('notes', 'note');
export const ownEvents = ownedRecords('calendar_events', 'event');
