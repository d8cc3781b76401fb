import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { RunStreams } from './run-streams.ts';

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

/**
 * What a Stop did: `stopped` (the instance holding the run ended it), `released` (that instance
 * was gone: the run was ended here as interrupted, keeping what it saved), `idle` (nothing ran).
 */
export type StopOutcome = 'stopped' | 'released' | 'idle';

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
  /** The thread's running run (its claim id), releasing one whose lease ran out. */
  runningIn(threadId: string): Promise<string | undefined>;
  /**
   * Stops the user's running run in the thread, wherever it runs, and answers once the thread is
   * free (within STOP_WAIT_MS): see StopOutcome.
   */
  stop(userId: number, threadId: string, cause?: 'stopped' | 'deleted'): Promise<StopOutcome>;
  /** Asks every running run of the user to stop (the user is being deleted). */
  stopUser(userId: number): Promise<void>;
  /**
   * Throws 503 with Retry-After while this instance shuts down: a run is not started here, where
   * it would be cut after SHUTDOWN_TIMEOUT_MS, but on another instance (the balancer retries a 503).
   */
  refuseWhileDraining(): void;
  localCount(): number;
  /** The chunks of the runs streamed here, for rejoins (see RunStreams). */
  streams: RunStreams;
  /**
   * Ends runs lost with their instance (lease ran out) as interrupted and, alongside, does the
   * housekeeping (approvals nobody answered in time marked expired, old rejoin chunks dropped);
   * returns how many runs it ended.
   */
  sweep(): Promise<number>;
  close(): Promise<void>;
}
