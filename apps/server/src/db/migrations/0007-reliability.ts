import type { Kysely } from 'kysely';
import type { VersionedMigration } from './versioned-migration.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * What running several instances through crashes needs (docs/deployment.md):
 * - `idempotency_keys`: answers to create requests that carried an `Idempotency-Key`, stored in
 *   the same transaction as the write, so a retry after a lost response gets the first answer
 *   instead of a second copy;
 * - `instances`: one row per running server process, touched by its readiness checks (a write that
 *   fails on a full disk or a read-only database) and by its heartbeat.
 */
export const reliability: VersionedMigration = () => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('key', 'text', (c) => c.notNull())
      // SHA-256 (hex) of method, path and body: the same key with another request is refused.
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('response', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
      .execute();
    await db.schema
      .createIndex('idempotency_keys_created_idx')
      .on('idempotency_keys')
      .column('created_at')
      .execute();

    await db.schema
      .createTable('instances')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('seen_at', 'text', (c) => c.notNull())
      .execute();
  },
});
