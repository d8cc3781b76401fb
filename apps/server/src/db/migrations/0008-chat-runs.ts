import { sql, type Kysely } from 'kysely';
import type { VersionedMigration } from './versioned-migration.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Chat runs and copilot host-page calls move from process memory to the database, so any
 * instance can stop a run, answer a host call or take over after a crash (docs/deployment.md):
 * - `chat_runs`: one row per run segment (a turn, or its continuation after an approval), held by
 *   the instance that streams it; a unique partial index allows one running row per thread;
 * - `host_calls`: a copilot run's call of a function of the embedding page, waiting for its result;
 * - `trigger_events` gains a heartbeat and an attempt count instead of a fixed stale timeout;
 * - `tool_executions`: results of write tools run under an idempotency key (a trigger event's), so
 *   a retried run does not send twice.
 */
export const chatRuns: VersionedMigration = () => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('chat_runs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // The logical run: a turn and its continuations after approvals share it.
      .addColumn('run_id', 'text', (c) => c.notNull())
      .addColumn('thread_id', 'text', (c) => c.notNull().references('threads.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('message_id', 'text', (c) => c.notNull())
      .addColumn('instance_id', 'text', (c) => c.notNull())
      // 'running' | 'complete' | 'awaiting_approval' | 'interrupted' | 'error'
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('stop_requested', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('heartbeat_at', 'text', (c) => c.notNull())
      .addColumn('ended_at', 'text')
      .execute();
    // One running run per thread, whichever instance starts it.
    await sql`create unique index chat_runs_one_running_idx on chat_runs (thread_id) where status = 'running'`.execute(
      db,
    );
    await db.schema
      .createIndex('chat_runs_instance_idx')
      .on('chat_runs')
      .columns(['instance_id', 'status'])
      .execute();
    await db.schema
      .createIndex('chat_runs_status_idx')
      .on('chat_runs')
      .columns(['status', 'heartbeat_at'])
      .execute();

    await db.schema
      .createTable('host_calls')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
      .addColumn('run_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      // 'pending' | 'answered'
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('result', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('host_calls_expires_idx').on('host_calls').column('expires_at').execute();

    await db.schema
      .alterTable('trigger_events')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('trigger_events').addColumn('instance_id', 'text').execute();
    await db.schema.alterTable('trigger_events').addColumn('heartbeat_at', 'text').execute();

    await db.schema
      .createTable('tool_executions')
      .addColumn('idempotency_key', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('result', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    // Answers a process lost before this version can never finish: they end as interrupted.
    await db
      .updateTable('messages')
      .set({ status: 'interrupted' })
      .where('status', '=', 'streaming')
      .execute();
  },
});
