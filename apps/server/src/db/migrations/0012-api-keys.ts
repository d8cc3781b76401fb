import type { Kysely } from 'kysely';
import type { VersionedMigration } from './versioned-migration.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * `api_keys`: a user's personal API keys. Only an HMAC of each key is kept (unique, so verifying a
 * key is one indexed lookup); the rows go with the user.
 */
export const apiKeys: VersionedMigration = (dialect) => ({
  async up(db: Kysely<any>) {
    let table = db.schema.createTable('api_keys');
    table =
      dialect === 'postgres'
        ? table.addColumn('id', 'serial', (c: any) => c.primaryKey())
        : table.addColumn('id', 'integer', (c: any) => c.primaryKey().autoIncrement());
    await table
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('prefix', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull().unique())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('agent_ids', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('last_used_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('api_keys_user_idx').on('api_keys').column('user_id').execute();
  },
});
