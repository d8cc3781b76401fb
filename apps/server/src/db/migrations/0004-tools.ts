import type { Kysely } from 'kysely';
import type { VersionedMigration } from './versioned-migration.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyDb = Kysely<any>;

/** The built-in Notes and Calendar services keep each user's data here, always read by owner. */
export const toolsSchema: VersionedMigration = (dialect) => ({
  async up(db: AnyDb) {
    const id = (t: any) =>
      dialect === 'postgres'
        ? t.addColumn('id', 'serial', (c: any) => c.primaryKey())
        : t.addColumn('id', 'integer', (c: any) => c.primaryKey().autoIncrement());

    await id(db.schema.createTable('notes'))
      .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('title', 'text', (c: any) => c.notNull())
      .addColumn('body', 'text', (c: any) => c.notNull())
      .addColumn('created_at', 'text', (c: any) => c.notNull())
      .addColumn('updated_at', 'text', (c: any) => c.notNull())
      .execute();
    await db.schema.createIndex('notes_user_idx').on('notes').columns(['user_id', 'updated_at']).execute();

    await id(db.schema.createTable('calendar_events'))
      .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('title', 'text', (c: any) => c.notNull())
      .addColumn('description', 'text', (c: any) => c.notNull().defaultTo(''))
      .addColumn('location', 'text', (c: any) => c.notNull().defaultTo(''))
      /** ISO-8601 UTC instants, so text order is time order on both databases. */
      .addColumn('starts_at', 'text', (c: any) => c.notNull())
      .addColumn('ends_at', 'text', (c: any) => c.notNull())
      .addColumn('created_at', 'text', (c: any) => c.notNull())
      .addColumn('updated_at', 'text', (c: any) => c.notNull())
      .execute();
    await db.schema
      .createIndex('calendar_events_user_idx')
      .on('calendar_events')
      .columns(['user_id', 'starts_at'])
      .execute();
  },
});
