import type { Kysely } from 'kysely';
import type { VersionedMigration } from './versioned-migration.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * The public demos (`/demos`). Each visitor's demo session is a short-lived user of its own
 * (issuer `urn:cadre:demo`), so every table here is owned by that user and disappears with it
 * (ON DELETE CASCADE). The read-only sample data ships with the code; only what a visitor can
 * change is copied here per session: the shop's orders, refunds and tickets, and CRM activities.
 */
export const demos: VersionedMigration = () => ({
  async up(db: Kysely<any>) {
    const owner = (c: any) => c.notNull().references('users.id').onDelete('cascade');

    await db.schema
      .createTable('demo_sessions')
      // SHA-256 (hex) of the random value in the `/demos` cookie; the value itself is never stored.
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', owner)
      .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
      .addColumn('demo', 'text', (c) => c.notNull())
      .addColumn('client_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('demo_sessions_user_idx').on('demo_sessions').column('user_id').execute();
    await db.schema
      .createIndex('demo_sessions_last_seen_idx')
      .on('demo_sessions')
      .column('last_seen_at')
      .execute();

    await db.schema
      .createTable('demo_orders')
      .addColumn('user_id', 'integer', owner)
      .addColumn('order_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('refunded_cents', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('demo_orders_pk', ['user_id', 'order_id'])
      .execute();

    await db.schema
      .createTable('demo_refunds')
      .addColumn('user_id', 'integer', owner)
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('order_id', 'text', (c) => c.notNull())
      .addColumn('amount_cents', 'integer', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('demo_refunds_pk', ['user_id', 'id'])
      .execute();

    await db.schema
      .createTable('demo_tickets')
      .addColumn('user_id', 'integer', owner)
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('order_id', 'text')
      .addColumn('customer_email', 'text')
      .addColumn('priority', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('demo_tickets_pk', ['user_id', 'id'])
      .execute();

    await db.schema
      .createTable('demo_activities')
      .addColumn('user_id', 'integer', owner)
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('lead_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('notes', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('demo_activities_pk', ['user_id', 'id'])
      .execute();
  },
});
