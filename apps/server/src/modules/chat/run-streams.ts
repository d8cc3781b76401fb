import type { UIMessageChunk } from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { repeatUnlessBusy } from './run-lease.ts';

/**
 * A running answer can be rejoined (a reload, a second tab, another device) on any instance: the
 * instance streaming it keeps its chunks in memory, and a watcher reads them from the first, then
 * live, to the end. A watcher on the same instance reads the memory; one on another instance asks
 * for the run (`cadre_run_watch`, repeated every WATCH_RENEW_MS while it reads) and the holder
 * then writes the chunks, in batches every MIRROR_FLUSH_MS, to `chat_run_chunks`, announcing each
 * batch (`cadre_run_chunks`); the watcher also re-reads the table every WATCHER_POLL_MS, for a
 * signal it missed. Nothing is written for a run nobody watches from elsewhere.
 */
export interface RunStreams {
  /** Starts keeping a run's chunks (the instance streaming it). */
  open(claimId: string): RunTap;
  /**
   * The run's chunks from the first to the end, wherever it runs. `stillRunning` says whether the
   * run's row still runs: when it stops running and no end comes, its holder was lost, and the
   * stream ends with the answer marked interrupted.
   */
  join(claimId: string, stillRunning: () => Promise<boolean>): ReadableStream<UIMessageChunk>;
  close(): void;
}

export interface RunTap {
  push(chunk: UIMessageChunk): void;
  end(): void;
  /** Whether anyone reads the run besides its own connection (here or on another instance). */
  watched(): boolean;
}

/** How often a watcher on another instance says it still reads (the holder's flushes stop after). */
export const WATCH_RENEW_MS = 1_000;
const WATCH_LEASE_MS = 3 * WATCH_RENEW_MS;
const MIRROR_FLUSH_MS = 50;
/** Failed writes in a row (one every MIRROR_FLUSH_MS) after which a holder stops writing a run. */
const MAX_FLUSH_FAILURES = 20;
const WATCHER_POLL_MS = 250;
/** How long a watcher waits for the end of a run whose row stopped running before it gives up. */
const LOST_HOLDER_WAIT_MS = 2_000;

/** The chunk that ends a rejoined answer whose holder was lost: the answer shows as interrupted. */
const interruptedFinish: UIMessageChunk = { type: 'finish', messageMetadata: { status: 'interrupted' } };

interface Tap extends RunTap {
  chunks: UIMessageChunk[];
  ended: boolean;
  /** Watchers here reading the run, and those of them waiting for its next chunk. */
  watchers: number;
  wake: Set<() => void>;
  remoteUntil: number;
  mirror(): void;
}

export function createRunStreams({ db, log }: { db: Db; log: FastifyBaseLogger }): RunStreams {
  const taps = new Map<string, Tap>();
  const k = db.kysely;

  const stopHearingWatches = db.signals.subscribe('cadre_run_watch', (claimId) =>
    taps.get(claimId)?.mirror(),
  );

  function createTap(claimId: string): Tap {
    let mirrored = false;
    let written = 0;
    let endWritten = false;
    let flushDue: NodeJS.Timeout | undefined;
    let flushing: Promise<void> = Promise.resolve();
    const flush = async () => {
      flushDue = undefined;
      const batch = tap.chunks.slice(written);
      const seq = written;
      const now = new Date().toISOString();
      if (batch.length > 0) {
        await k
          .insertInto('chat_run_chunks')
          .values({ claim_id: claimId, seq, chunks: JSON.stringify(batch), created_at: now })
          .execute();
        written += batch.length;
      }
      if (tap.ended && !endWritten && written === tap.chunks.length) {
        endWritten = true;
        await k
          .insertInto('chat_run_chunks')
          .values({ claim_id: claimId, seq: written, chunks: null, created_at: now })
          .execute();
      }
      await db.signals.publish('cadre_run_chunks', claimId);
    };
    let failures = 0;
    const scheduleFlush = () => {
      if (!mirrored || flushDue) return;
      flushDue = setTimeout(() => {
        flushing = flushing
          .then(flush)
          .then(() => void (failures = 0))
          .catch((err: unknown) => {
            failures += 1;
            // A run deleted with its thread has nowhere to write: its watchers end with its row.
            if (failures >= MAX_FLUSH_FAILURES) mirrored = false;
            log.warn({ err, claimId, failures }, 'writing a watched answer failed');
          })
          .finally(() => {
            if (written < tap.chunks.length || (tap.ended && !endWritten)) scheduleFlush();
          });
      }, MIRROR_FLUSH_MS);
    };
    // Per chunk: no copy of the set, which a resolve does not change (its waiter resumes later).
    const wakeAll = () => {
      for (const wake of tap.wake) wake();
    };
    const tap: Tap = {
      chunks: [],
      ended: false,
      watchers: 0,
      wake: new Set(),
      remoteUntil: 0,
      push(chunk) {
        if (tap.ended) return;
        tap.chunks.push(chunk);
        wakeAll();
        scheduleFlush();
      },
      end() {
        tap.ended = true;
        wakeAll();
        scheduleFlush();
        // Kept until its last batch is written, so a late watcher here still reads it whole.
        void flushing.finally(() => setTimeout(() => taps.delete(claimId), WATCH_LEASE_MS).unref());
      },
      watched: () => tap.watchers > 0 || Date.now() < tap.remoteUntil,
      mirror() {
        tap.remoteUntil = Date.now() + WATCH_LEASE_MS;
        if (mirrored) return;
        mirrored = true;
        scheduleFlush();
      },
    };
    return tap;
  }

  /** The chunks of a run held here, read from memory. */
  function joinLocal(tap: Tap): ReadableStream<UIMessageChunk> {
    let next = 0;
    let wake: (() => void) | undefined;
    tap.watchers += 1;
    let left = false;
    const leave = () => {
      if (!left) tap.watchers -= 1;
      left = true;
      if (wake) tap.wake.delete(wake);
      wake?.();
    };
    return new ReadableStream<UIMessageChunk>({
      async pull(controller) {
        while (next >= tap.chunks.length && !tap.ended && !left) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            tap.wake.add(resolve);
          });
          tap.wake.delete(wake!);
          wake = undefined;
        }
        if (left) return; // cancelled while it waited
        if (next < tap.chunks.length) return controller.enqueue(tap.chunks[next++]!);
        leave();
        controller.close();
      },
      cancel: leave,
    });
  }

  /** The chunks of a run held by another instance, read from `chat_run_chunks`. */
  function joinRemote(claimId: string, stillRunning: () => Promise<boolean>): ReadableStream<UIMessageChunk> {
    let next = 0;
    let wake: (() => void) | undefined;
    let stopped = false;
    let holderGoneSince: number | undefined;
    const unsubscribe = db.signals.subscribe('cadre_run_chunks', (id) => {
      if (id === claimId) wake?.();
    });
    const askForRun = () => db.signals.publish('cadre_run_watch', claimId);
    void askForRun().catch(() => {});
    const renew = repeatUnlessBusy(askForRun, WATCH_RENEW_MS, () => {});
    const finish = () => {
      stopped = true;
      clearInterval(renew);
      unsubscribe();
    };
    return new ReadableStream<UIMessageChunk>({
      async pull(controller) {
        for (;;) {
          const rows = await k
            .selectFrom('chat_run_chunks')
            .select(['seq', 'chunks'])
            .where('claim_id', '=', claimId)
            .where('seq', '>=', next)
            .orderBy('seq')
            .execute();
          for (const row of rows) {
            if (row.chunks === null) {
              finish();
              controller.close();
              return;
            }
            const chunks = JSON.parse(row.chunks) as UIMessageChunk[];
            for (const chunk of chunks) controller.enqueue(chunk);
            next = row.seq + chunks.length;
          }
          if (rows.length > 0) return;
          if (!(await stillRunning())) {
            holderGoneSince ??= Date.now();
            if (Date.now() - holderGoneSince > LOST_HOLDER_WAIT_MS) {
              // Its instance was lost: the answer ends here, as its stored message does.
              controller.enqueue(interruptedFinish);
              finish();
              controller.close();
              return;
            }
          }
          if (stopped) return;
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, WATCHER_POLL_MS).unref();
          });
        }
      },
      cancel: finish,
    });
  }

  return {
    open(claimId) {
      const tap = createTap(claimId);
      taps.set(claimId, tap);
      return tap;
    },
    join(claimId, stillRunning) {
      const tap = taps.get(claimId);
      return tap ? joinLocal(tap) : joinRemote(claimId, stillRunning);
    },
    close() {
      stopHearingWatches();
    },
  };
}
