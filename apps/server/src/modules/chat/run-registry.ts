import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Lifecycle, MetricsRecorder } from '../../kernel.ts';
import { HttpError } from '../../http/errors.ts';
import {
  HOUSEKEEPING_EVERY_MS,
  LEASE_CHECK_EVERY_MS,
  RUN_LEASE_MS,
  RUN_LEASE_RENEW_MS,
  RUN_STOP_POLL_MS,
  housekeeping,
  releaseRuns,
  repeatUnlessBusy,
} from './run-lease.ts';
import { createRunStreams } from './run-streams.ts';
import { RunAbort, shutdownAbort, type RunRegistry } from './run-types.ts';

export { RUN_LEASE_MS };
export * from './run-types.ts';

/**
 * How long Stop waits for the instance holding the run to end it (a live one hears the signal
 * within milliseconds, or the flag within RUN_STOP_POLL_MS, renews the run's lease at once and ends
 * the run in one commit): past that, unless the lease was renewed since the Stop, the instance is
 * taken for gone and the run is released here, so the thread is free when Stop answers.
 */
export const STOP_WAIT_MS = 500;

/** Seconds a turn refused by a draining instance waits: any other instance can take it now. */
const DRAINING_RETRY_AFTER_SECONDS = 1;

const stopMessages = {
  stopped: 'Stopped.',
  deleted: 'The thread was deleted.',
  /** Its row no longer runs: deleted with its thread, or released when its lease ran out. */
  gone: 'The answer was ended: its thread was deleted, or this server lost its hold on it.',
} as const;

export interface RunRegistryDeps {
  db: Db;
  lifecycle: Lifecycle;
  log: FastifyBaseLogger;
  /** On shutdown, runs still going after this long end as interrupted (SHUTDOWN_TIMEOUT_MS). */
  shutdownTimeoutMs: number;
  /** Counts the runs this instance releases because their lease ran out or their holder is gone. */
  metrics?: Pick<MetricsRecorder, 'runLeasesExpired'>;
}

const registries = new WeakMap<Lifecycle, RunRegistry>();

/**
 * The one registry of an app (its chat, its demos' chat and its trigger worker share it), made on
 * first use. Keyed by the app's lifecycle, which every instance has its own of.
 */
export function runRegistryFor(deps: RunRegistryDeps): RunRegistry {
  let registry = registries.get(deps.lifecycle);
  if (!registry) {
    registry = createRunRegistry(deps);
    registries.set(deps.lifecycle, registry);
  }
  return registry;
}

function createRunRegistry({ db, lifecycle, log, shutdownTimeoutMs, metrics }: RunRegistryDeps): RunRegistry {
  const k = db.kysely;
  const instanceId = lifecycle.instanceId;
  const local = new Map<string, AbortController>();
  let heartbeat: NodeJS.Timeout | undefined;
  let stopPoll: NodeJS.Timeout | undefined;
  let closed = false;
  const nowIso = () => new Date().toISOString();
  const release = (which?: Parameters<typeof releaseRuns>[3]) =>
    releaseRuns(db, instanceId, log, which, metrics);

  const abortHere = (claimId: string, reason: RunAbort) => {
    const controller = local.get(claimId);
    if (!controller || controller.signal.aborted) return;
    controller.abort(reason);
    // A Stop waits for the run's row to end: a lease renewed now tells it this instance is alive and
    // ending the run (its last save may take a while under load), not gone. Sent even while a timed
    // beat is out: that one may have been stamped before the Stop.
    if (reason.why === 'stopped' || reason.why === 'deleted') void beat().catch(() => {});
  };

  // A Stop published by another instance for a run held here.
  const unsubscribe = db.signals.subscribe('cadre_run_stop', (payload) => {
    const [claimId, cause] = payload.split(':');
    const why = cause === 'deleted' ? 'deleted' : 'stopped';
    if (claimId) abortHere(claimId, new RunAbort(why, stopMessages[why]));
  });

  /** Flags the matching running runs and tells the instances holding them. */
  async function requestStop(which: { userId: number; threadId?: string }, cause: 'stopped' | 'deleted') {
    let query = k
      .updateTable('chat_runs')
      .set({ stop_requested: 1 })
      .where('user_id', '=', which.userId)
      .where('status', '=', 'running');
    if (which.threadId !== undefined) query = query.where('thread_id', '=', which.threadId);
    const rows = await query.returning('id').execute();
    for (const { id } of rows) {
      if (local.has(id)) abortHere(id, new RunAbort(cause, stopMessages[cause]));
      else await db.signals.publish('cadre_run_stop', `${id}:${cause}`);
    }
    return rows.map((row) => row.id);
  }

  /** Whether the thread's run ends by `deadline` (a time in ms). */
  async function endedBy(threadId: string, deadline: number) {
    for (;;) {
      if ((await runningIn(threadId)) === undefined) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** The thread's running run, unless its lease ran out: then it is released here. */
  async function runningIn(threadId: string) {
    const row = await k
      .selectFrom('chat_runs')
      .select(['id', 'heartbeat_at'])
      .where('thread_id', '=', threadId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (!row) return undefined;
    if (Date.parse(row.heartbeat_at) >= Date.now() - RUN_LEASE_MS || local.has(row.id)) return row.id;
    const released = await release({ threadId });
    return released.includes(row.id) ? undefined : row.id;
  }

  /**
   * Aborts the runs whose rows say so: gone (deleted with their thread or user) or flagged to stop.
   * Only runs attached before the query can be judged by its answer: one attached meanwhile
   * committed its row after the query's snapshot and must not look deleted.
   */
  async function judge(query: () => Promise<{ id: string; stop_requested: number }[]>) {
    if (local.size === 0) return;
    const judged = [...local.keys()];
    const alive = new Map((await query()).map((row) => [row.id, row.stop_requested === 1]));
    for (const claimId of judged) {
      if (!local.has(claimId)) continue; // ended meanwhile
      if (!alive.has(claimId)) abortHere(claimId, new RunAbort('deleted', stopMessages.gone));
      else if (alive.get(claimId)) abortHere(claimId, new RunAbort('stopped', stopMessages.stopped));
    }
  }
  /** Keeps this instance's runs alive (and judges them too). */
  const beat = () =>
    judge(() =>
      k
        .updateTable('chat_runs')
        .set({ heartbeat_at: nowIso() }) // renews the lease
        .where('instance_id', '=', instanceId)
        .where('status', '=', 'running')
        .returning(['id', 'stop_requested'])
        .execute(),
    );
  /** Catches a stop or delete whose signal was missed. */
  const pollStops = () =>
    judge(() =>
      k
        .selectFrom('chat_runs')
        .select(['id', 'stop_requested'])
        .where('instance_id', '=', instanceId)
        .where('status', '=', 'running')
        .execute(),
    );

  const scheduleBeat = () => {
    if (heartbeat || closed) return;
    heartbeat = repeatUnlessBusy(beat, RUN_LEASE_RENEW_MS, (err) =>
      log.warn({ err }, 'run heartbeat failed; retrying'),
    );
    // Its failures are the heartbeat's too, which reports them; five warnings a second would not help.
    stopPoll = repeatUnlessBusy(pollStops, RUN_STOP_POLL_MS, () => {});
  };

  const releaseLost = async () => (await release()).length;
  /** Lost runs released, then the housekeeping; how many runs it released. */
  const sweep = async () => (await Promise.all([releaseLost(), housekeeping(db)]))[0];

  // On SIGTERM, runs get SHUTDOWN_TIMEOUT_MS to finish; the rest end as interrupted, with what
  // they streamed saved and an error chunk telling the person why. The deadline is set even when
  // no run is going, so a run that starts while draining (admitted just before) is bounded too.
  let shutdownTimer: NodeJS.Timeout | undefined;
  let shutdownDeadline: number | undefined;
  lifecycle.onDrain(() => {
    shutdownDeadline = Date.now() + shutdownTimeoutMs;
    shutdownTimer = setTimeout(() => {
      const ended = abortAll(shutdownAbort());
      if (ended > 0) log.info({ runs: ended }, 'shutdown: runs still going ended as interrupted');
    }, shutdownTimeoutMs);
    shutdownTimer.unref();
  });
  const abortAll = (reason: RunAbort) => {
    const count = local.size;
    for (const claimId of local.keys()) abortHere(claimId, reason);
    return count;
  };

  const sweepWarn = (err: unknown) => log.warn({ err }, 'lost-run sweep failed; retrying');
  const sweeper = repeatUnlessBusy(releaseLost, LEASE_CHECK_EVERY_MS, sweepWarn);
  const housekeeper = repeatUnlessBusy(() => housekeeping(db), HOUSEKEEPING_EVERY_MS, sweepWarn);
  void sweep().catch(sweepWarn);
  const streams = createRunStreams({ db, log });

  return {
    async claim(run, trx) {
      const id = crypto.randomUUID();
      const now = nowIso();
      const row = await (trx ?? k)
        .insertInto('chat_runs')
        .values({
          id,
          run_id: run.runId,
          thread_id: run.threadId,
          user_id: run.userId,
          message_id: run.messageId,
          instance_id: instanceId,
          status: 'running',
          started_at: now,
          heartbeat_at: now,
        })
        // The one-running-run-per-thread index refuses a second run, on any instance.
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    attach(claimId, controller) {
      local.set(claimId, controller);
      scheduleBeat();
      // Past the shutdown deadline a run has no time left: it ends at once, saved as interrupted.
      if (shutdownDeadline !== undefined && Date.now() >= shutdownDeadline)
        abortHere(claimId, shutdownAbort());
    },

    async end(claimId, status, trx) {
      // Forgotten first: a stop poll must not read the ended row as gone and abort a finishing run.
      local.delete(claimId);
      await (trx ?? k)
        .updateTable('chat_runs')
        .set({ status, ended_at: nowIso() })
        .where('id', '=', claimId)
        .where('status', '=', 'running')
        .execute();
    },

    runningIn,

    async stop(userId, threadId, cause = 'stopped') {
      // A run whose lease already ran out is released at once, with no one to ask.
      if ((await release({ threadId })).length > 0) return 'released';
      const askedAt = Date.now();
      const asked = await requestStop({ userId, threadId }, cause);
      if (asked.length === 0) return 'idle';
      if (await endedBy(threadId, askedAt + STOP_WAIT_MS)) return 'stopped';
      // A holder that renewed the lease since the Stop is alive and ending the run: it gets until
      // that lease runs out. One that did not is taken for gone.
      const renewed = await k
        .selectFrom('chat_runs')
        .select('heartbeat_at')
        .where('id', 'in', asked)
        .where('status', '=', 'running')
        .executeTakeFirst();
      const renewedAt = renewed ? Date.parse(renewed.heartbeat_at) : 0;
      if (renewedAt >= askedAt && (await endedBy(threadId, renewedAt + RUN_LEASE_MS))) return 'stopped';
      const released = await release({ ids: asked });
      return released.length > 0 ? 'released' : 'stopped';
    },

    async stopUser(userId) {
      await requestStop({ userId }, 'deleted');
    },

    refuseWhileDraining() {
      if (lifecycle.draining)
        throw new HttpError('unavailable', 'This server is restarting; send it again in a moment', {
          'retry-after': String(DRAINING_RETRY_AFTER_SECONDS),
        });
    },

    localCount: () => local.size,
    streams,
    sweep,

    async close() {
      closed = true;
      clearTimeout(shutdownTimer);
      clearInterval(heartbeat);
      clearInterval(stopPoll);
      clearInterval(sweeper);
      clearInterval(housekeeper);
      unsubscribe();
      streams.close();
    },
  };
}
