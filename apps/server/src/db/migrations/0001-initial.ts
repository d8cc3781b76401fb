import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import type { VersionedMigration } from './versioned-migration.ts';

// Migrations use `Kysely<any>` on purpose: they describe the schema at their point in history,
// not the current `Database` type.
/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyDb = Kysely<any>;

function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

const timestamps = <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
  table
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull());

export const initialSchema: VersionedMigration = (dialect) => ({
  async up(db: AnyDb) {
    await timestamps(
      withId(db.schema.createTable('users'), dialect)
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('name', 'text')
        .addColumn('picture', 'text'),
    )
      .addUniqueConstraint('users_issuer_subject_unique', ['issuer', 'subject'])
      .execute();

    await timestamps(
      withId(db.schema.createTable('agents'), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('guidelines', 'text')
        .addColumn('allow_unattended_writes', 'integer', (c) => c.notNull().defaultTo(0)),
    ).execute();
    await db.schema.createIndex('agents_user_idx').on('agents').columns(['user_id', 'id']).execute();

    await timestamps(
      withId(db.schema.createTable('services'), dialect)
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('provider_key', 'text', (c) => c.notNull())
        .addColumn('owner_user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('logo', 'text')
        .addColumn('auth_scheme', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}')),
    ).execute();
    // Catalog services (no owner) are unique per provider key; a user's own services per owner.
    // Two partial indexes, because NULLs never collide in a unique index on either database.
    await db.schema
      .createIndex('services_catalog_key_unique')
      .on('services')
      .columns(['provider', 'provider_key'])
      .unique()
      .where(sql.ref('owner_user_id'), 'is', null)
      .execute();
    await db.schema
      .createIndex('services_owned_key_unique')
      .on('services')
      .columns(['owner_user_id', 'provider', 'provider_key'])
      .unique()
      .where(sql.ref('owner_user_id'), 'is not', null)
      .execute();

    await timestamps(
      withId(db.schema.createTable('actions'), dialect)
        .addColumn('service_id', 'integer', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('input_schema', 'text', (c) => c.notNull())
        .addColumn('effect', 'text', (c) => c.notNull())
        .addColumn('version', 'text')
        .addColumn('deprecated', 'integer', (c) => c.notNull().defaultTo(0)),
    )
      .addUniqueConstraint('actions_service_name_unique', ['service_id', 'name'])
      .execute();

    await db.schema
      .createTable('agent_tools')
      .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
      .addColumn('action_id', 'integer', (c) => c.notNull().references('actions.id').onDelete('cascade'))
      .addColumn('version', 'text')
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('agent_tools_pk', ['agent_id', 'action_id'])
      .execute();
    await db.schema.createIndex('agent_tools_action_idx').on('agent_tools').column('action_id').execute();

    await timestamps(
      withId(db.schema.createTable('connections'), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('service_id', 'integer', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('external_id', 'text')
        .addColumn('credentials', 'text'),
    )
      .addUniqueConstraint('connections_user_service_unique', ['user_id', 'service_id'])
      .execute();

    await db.schema
      .createTable('oauth_states')
      .addColumn('state_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('service_id', 'integer', (c) => c.notNull().references('services.id').onDelete('cascade'))
      .addColumn('verifier', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await timestamps(
      db.schema
        .createTable('threads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('origin', 'text', (c) => c.notNull().defaultTo('chat'))
        .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}')),
    ).execute();
    await db.schema
      .createIndex('threads_user_agent_idx')
      .on('threads')
      .columns(['user_id', 'agent_id', 'updated_at'])
      .execute();

    await db.schema
      .createTable('messages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('thread_id', 'text', (c) => c.notNull().references('threads.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('parts', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('messages_thread_idx')
      .on('messages')
      .columns(['thread_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('approvals')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('thread_id', 'text', (c) => c.notNull().references('threads.id').onDelete('cascade'))
      .addColumn('run_id', 'text', (c) => c.notNull())
      .addColumn('tool_call_id', 'text', (c) => c.notNull().unique())
      .addColumn('action_id', 'integer', (c) => c.notNull().references('actions.id').onDelete('cascade'))
      .addColumn('args_hash', 'text', (c) => c.notNull())
      .addColumn('args', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('decided_at', 'text')
      .execute();

    await timestamps(
      withId(db.schema.createTable('trigger_events'), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
        .addColumn('trigger_id', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('thread_id', 'text'),
    ).execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('received_at', 'text', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('audit_events'), dialect)
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('object_type', 'text')
      .addColumn('object_id', 'text')
      .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('audit_events_user_idx')
      .on('audit_events')
      .columns(['user_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
});
