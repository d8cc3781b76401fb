import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { Lifecycle, MetricsRecorder } from '../../kernel.ts';
import { HttpError } from '../../http/errors.ts';
import { RUN_STALE_AFTER_MS, SWEEP_EVERY_MS, sweepLostRuns } from './run-sweep.ts';

export { RUN_STALE_AFTER_MS };

/** How often an instance says its runs are alive. */
export const RUN_HEARTBEAT_MS = 2_000;
/**
 * How often an instance holding runs reads whether one was stopped or deleted: the fallback for a
 * missed signal (a LISTEN connection that was reconnecting), so Stop still lands within 500 ms. One
 * indexed read of this instance's running rows, made only while it holds runs.
 */
export const RUN_STOP_POLL_MS = 200;

/** Why a run was aborted, as the runtime reports it to the person watching. */
export class RunAbort extends Error {
  constructor(
    readonly why: 'stopped' | 'deleted' | 'shutdown' | 'disconnected',
    message: string,
  ) {
    super(message);
    this.name = 'RunAbort';
  }
}

export const shutdownAbort = () =>
  new RunAbort('shutdown', 'The server is restarting; the answer so far was saved. Ask again to continue.');

export type RunEndStatus = 'complete' | 'awaiting_approval' | 'interrupted' | 'error';

export interface RunClaim {
  runId: string;
  userId: number;
  threadId: string;
  messageId: string;
}

/**
 * The runs in progress, in the database (`chat_runs`), so every instance sees them: one running
 * run per thread (a unique partial index), Stop from any instance (a flag the holding instance
 * hears through a signal within milliseconds, or its next heartbeat), and runs lost with a crashed
 * instance ended as interrupted by whichever instance sweeps next. On SQLite the same code runs
 * with in-process signals.
 */
export interface RunRegistry {
  /**
   * Claims the thread for a run: a running row, in `trx` when given (the turn's own commit).
   * Returns its id, or undefined when the thread already has a running run.
   */
  claim(run: RunClaim, trx?: Kysely<Database>): Promise<string | undefined>;
  /** Connects a claimed run to the controller that aborts it here. */
  attach(claimId: string, controller: AbortController): void;
  /** Ends the run's row (and forgets it locally), in `trx` when given (the run's last save). */
  end(claimId: string, status: RunEndStatus, trx?: Kysely<Database>): Promise<void>;
  /** Whether the thread has a running run (on any instance). */
  isRunning(threadId: string): Promise<boolean>;
  /** Asks the user's running run in the thread to stop, wherever it runs; whether there was one. */
  stop(userId: number, threadId: string, cause?: 'stopped' | 'deleted'): Promise<boolean>;
  /** Asks every running run of the user to stop (the user is being deleted). */
  stopUser(userId: number): Promise<void>;
  /**
   * Throws 503 with Retry-After while this instance shuts down: a run is not started here, where
   * it would be cut after SHUTDOWN_TIMEOUT_MS, but on another instance (the balancer retries a 503).
   */
  refuseWhileDraining(): void;
  localCount(): number;
  /** Ends runs lost with their instance as interrupted; how many. */
  sweep(): Promise<number>;
  close(): Promise<void>;
}

/** Seconds a turn refused by a draining instance waits: any other instance can take it now. */
const DRAINING_RETRY_AFTER_SECONDS = 1;

const stopMessages = {
  stopped: 'Stopped.',
  deleted: 'The thread was deleted.',
} as const;

export interface RunRegistryDeps {
  db: Db;
  lifecycle: Lifecycle;
  log: FastifyBaseLogger;
  /** On shutdown, runs still going after this long end as interrupted (SHUTDOWN_TIMEOUT_MS). */
  shutdownTimeoutMs: number;
  /** Counts the lost runs this instance's sweep releases. */
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

  const abortHere = (claimId: string, reason: RunAbort) => {
    const controller = local.get(claimId);
    if (controller && !controller.signal.aborted) controller.abort(reason);
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
    return rows.length > 0;
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
      if (!alive.has(claimId)) abortHere(claimId, new RunAbort('deleted', stopMessages.deleted));
      else if (alive.get(claimId)) abortHere(claimId, new RunAbort('stopped', stopMessages.stopped));
    }
  }
  /** Keeps this instance's runs alive (and judges them too). */
  const beat = () =>
    judge(() =>
      k
        .updateTable('chat_runs')
        .set({ heartbeat_at: nowIso() })
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
    heartbeat = setInterval(() => {
      beat().catch((err: unknown) => log.warn({ err }, 'run heartbeat failed; retrying'));
    }, RUN_HEARTBEAT_MS);
    heartbeat.unref();
    // Its failures are the heartbeat's too, which reports them; five warnings a second would not help.
    stopPoll = setInterval(() => void pollStops().catch(() => {}), RUN_STOP_POLL_MS);
    stopPoll.unref();
  };

  const sweep = () => sweepLostRuns(db, instanceId, log, metrics);

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

  const sweeper = setInterval(() => {
    sweep().catch((err: unknown) => log.warn({ err }, 'lost-run sweep failed; retrying'));
  }, SWEEP_EVERY_MS);
  sweeper.unref();
  void sweep().catch((err: unknown) => log.warn({ err }, 'lost-run sweep failed; retrying'));

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

    async isRunning(threadId) {
      const row = await k
        .selectFrom('chat_runs')
        .select('id')
        .where('thread_id', '=', threadId)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return row !== undefined;
    },

    stop: (userId, threadId, cause = 'stopped') => requestStop({ userId, threadId }, cause),

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
    sweep,

    async close() {
      closed = true;
      clearTimeout(shutdownTimer);
      clearInterval(heartbeat);
      clearInterval(stopPoll);
      clearInterval(sweeper);
      unsubscribe();
    },
  };
}
