import type { Kysely } from 'kysely';
import type { VersionedMigration } from './versioned-migration.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyDb = Kysely<any>;

/**
 * The built-in identity provider (modules/identity): its accounts, and the state oidc-provider
 * keeps (sessions, grants, codes, tokens, interactions) so that every instance sees the same.
 */
export const identitySchema: VersionedMigration = (dialect) => ({
  async up(db: AnyDb) {
    const base = db.schema.createTable('idp_accounts');
    await (
      dialect === 'postgres'
        ? base.addColumn('id', 'serial', (c) => c.primaryKey())
        : base.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    )
      // The subject (`sub`) the provider issues: random, never reused, never the email.
      .addColumn('subject', 'text', (c) => c.notNull().unique())
      // Stored lower-cased, so the unique constraint is case-insensitive on both databases.
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('idp_payloads')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('grant_id', 'text')
      .addColumn('uid', 'text')
      .addColumn('user_code', 'text')
      .addColumn('consumed_at', 'text')
      .addColumn('expires_at', 'text')
      .addPrimaryKeyConstraint('idp_payloads_pk', ['kind', 'id'])
      .execute();
    await db.schema.createIndex('idp_payloads_grant_idx').on('idp_payloads').columns(['grant_id']).execute();
    await db.schema.createIndex('idp_payloads_uid_idx').on('idp_payloads').columns(['kind', 'uid']).execute();
    await db.schema
      .createIndex('idp_payloads_user_code_idx')
      .on('idp_payloads')
      .columns(['kind', 'user_code'])
      .execute();
    await db.schema
      .createIndex('idp_payloads_expiry_idx')
      .on('idp_payloads')
      .columns(['expires_at'])
      .execute();
  },
});
