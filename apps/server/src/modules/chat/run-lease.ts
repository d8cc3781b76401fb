import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { MetricsRecorder } from '../../kernel.ts';

/**
 * A running run holds a lease on its thread (its row's `heartbeat_at` plus RUN_LEASE_MS), which
 * the instance holding it renews every RUN_LEASE_RENEW_MS. A run whose lease ran out was lost with
 * its instance (killed, or cut off from the database): any instance may end it as interrupted.
 */
export const RUN_LEASE_RENEW_MS = 1_000;
/** Three renewals missed: a live instance under load still makes one of them. */
export const RUN_LEASE_MS = 3_000;
/**
 * How often each instance ends the runs whose lease ran out: a dead instance's run is released
 * within RUN_LEASE_MS + LEASE_CHECK_EVERY_MS (4 s) of its last renewal. One indexed update.
 */
export const LEASE_CHECK_EVERY_MS = 1_000;
/**
 * How often an instance holding runs reads whether one was stopped or deleted: the fallback for a
 * missed signal (a LISTEN connection that was reconnecting), so Stop still lands within 500 ms. One
 * indexed read of this instance's running rows, made only while it holds runs.
 */
export const RUN_STOP_POLL_MS = 200;
/** How often each instance expires unanswered approvals and drops the streams of ended runs. */
export const HOUSEKEEPING_EVERY_MS = 15_000;
/** A rejoined answer's chunks are kept this long after its run ended, for watchers still reading. */
const STREAM_KEPT_AFTER_END_MS = 60_000;

/**
 * Runs `task` every `everyMs` (an unref'd timer, returned for clearInterval), skipping a tick while
 * the previous run is still going: a database slower than the interval would otherwise get the
 * same query again and again before it answered the first, each holding a pooled connection.
 */
export function repeatUnlessBusy(
  task: () => Promise<unknown>,
  everyMs: number,
  onError: (err: unknown) => void,
): NodeJS.Timeout {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void task()
      .catch(onError)
      .finally(() => (busy = false));
  }, everyMs);
  timer.unref();
  return timer;
}

/**
 * Ends as interrupted the running runs that are `which` (every run whose lease ran out, those of
 * one thread, or the given ones whatever their lease: a Stop whose holder never answered), keeping
 * what they streamed. Runs of this instance are never released here: it ends its own. Returns the
 * ids of the runs it ended.
 */
export async function releaseRuns(
  db: Db,
  instanceId: string,
  log: FastifyBaseLogger,
  which: { threadId?: string; ids?: string[] } = {},
  metrics?: Pick<MetricsRecorder, 'runLeasesExpired'>,
): Promise<string[]> {
  const k = db.kysely;
  const now = new Date().toISOString();
  let query = k
    .updateTable('chat_runs')
    .set({ status: 'interrupted', ended_at: now })
    .where('status', '=', 'running')
    .where('instance_id', '!=', instanceId);
  if (which.ids) query = query.where('id', 'in', which.ids);
  else query = query.where('heartbeat_at', '<', new Date(Date.now() - RUN_LEASE_MS).toISOString());
  if (which.threadId !== undefined) query = query.where('thread_id', '=', which.threadId);
  const lost = await query.returning(['id', 'message_id']).execute();
  if (lost.length > 0) {
    await k
      .updateTable('messages')
      .set({ status: 'interrupted' })
      .where(
        'id',
        'in',
        lost.map((row) => row.message_id),
      )
      .where('status', '=', 'streaming')
      .execute();
    log.info({ runs: lost.length }, 'runs lost with their instance ended as interrupted');
    metrics?.runLeasesExpired(lost.length);
  }
  return lost.map((row) => row.id);
}

/** Marks approvals nobody answered in time as expired (K2); drops the streams of long-ended runs. */
export async function housekeeping(db: Db): Promise<void> {
  const k = db.kysely;
  const now = new Date().toISOString();
  await k
    .updateTable('approvals')
    .set({ status: 'expired', decided_at: now })
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now)
    .execute();
  const ended = new Date(Date.now() - STREAM_KEPT_AFTER_END_MS).toISOString();
  await k
    .deleteFrom('chat_run_chunks')
    .where('created_at', '<', ended)
    .where('claim_id', 'not in', (q) =>
      q.selectFrom('chat_runs').select('id').where('status', '=', 'running'),
    )
    .execute();
}
