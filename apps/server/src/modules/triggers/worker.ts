import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { createTriggerRepository } from './repository.ts';

/**
 * Runs stored trigger events (`POST /agents/{id}/triggers/{trigger_id}`, provider webhooks) as
 * unattended agent runs. Every instance polls the `trigger_events` table and claims an event with a
 * conditional UPDATE, so each event runs once however many instances there are. The instance
 * running an event beats for it; an event whose instance stopped beating (killed) is claimed again
 * by another, in the same thread, at most `maxAttempts` times in all, and its writes carry the
 * event's idempotency key, so the retry does not repeat them.
 */
export interface TriggerRun {
  eventId: number;
  userId: number;
  agentId: number;
  triggerId: string;
  payload: unknown;
  /** The event's thread: made for the first attempt, kept for the retries. */
  threadId: string;
  attempt: number;
}

export type RunTrigger = (run: TriggerRun) => Promise<{ threadId: string; status: string }>;

export interface TriggerWorkerOptions {
  db: Db;
  log: FastifyBaseLogger;
  run: RunTrigger;
  /** This instance (rows it claims are marked with it). */
  instanceId: string;
  /** Runs of one event in all, its first included (TRIGGER_MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** Whether the process is shutting down: a run it cut short is handed back, not failed. */
  draining?: () => boolean;
  pollIntervalMs?: number;
  heartbeatMs?: number;
  staleAfterMs?: number;
  now?: () => number;
}

export interface TriggerWorker {
  /** Claims and runs pending events until none is left; resolves with how many ran. */
  drain(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export const TRIGGER_HEARTBEAT_MS = 5_000;
/** An event whose instance has not beaten for this long was lost with it. */
export const TRIGGER_STALE_AFTER_MS = 30_000;

export function createTriggerWorker(options: TriggerWorkerOptions): TriggerWorker {
  const { log, run, instanceId } = options;
  const repo = createTriggerRepository(options.db);
  const pollIntervalMs = options.pollIntervalMs ?? 2_000;
  const heartbeatMs = options.heartbeatMs ?? TRIGGER_HEARTBEAT_MS;
  const staleAfterMs = options.staleAfterMs ?? TRIGGER_STALE_AFTER_MS;
  const maxAttempts = options.maxAttempts ?? 3;
  const now = options.now ?? Date.now;
  const iso = (ms = now()) => new Date(ms).toISOString();
  let timer: NodeJS.Timeout | undefined;
  let draining: Promise<number> | undefined;
  let stopped = false;

  async function runOne(event: NonNullable<Awaited<ReturnType<typeof repo.claimNext>>>) {
    let payload: unknown = null;
    try {
      payload = JSON.parse(event.payload);
    } catch {
      payload = event.payload;
    }
    const threadId = event.thread_id ?? crypto.randomUUID();
    if (!event.thread_id) await repo.setThread(event.id, threadId);
    const beat = setInterval(() => {
      repo
        .beat(event.id, instanceId, iso())
        .catch((err: unknown) => log.warn({ err }, 'trigger heartbeat failed'));
    }, heartbeatMs);
    beat.unref();
    try {
      const result = await run({
        eventId: event.id,
        userId: event.user_id,
        agentId: event.agent_id,
        triggerId: event.trigger_id,
        payload,
        threadId,
        attempt: event.attempts,
      });
      if (result.status === 'interrupted' && options.draining?.()) await repo.release(event.id, iso());
      else await repo.finish(event.id, result.status === 'error' ? 'failed' : 'done', result.threadId, iso());
    } catch (err) {
      log.warn({ err, triggerEvent: event.id }, 'trigger run failed');
      await repo.finish(event.id, 'failed', threadId, iso());
    } finally {
      clearInterval(beat);
    }
  }

  async function drainOnce(): Promise<number> {
    let ran = 0;
    while (!stopped) {
      const event = await repo.claimNext({
        instanceId,
        now: iso(),
        staleBefore: iso(now() - staleAfterMs),
        maxAttempts,
      });
      if (event === undefined) break;
      if (event === null) continue;
      await runOne(event);
      ran++;
    }
    return ran;
  }

  const worker: TriggerWorker = {
    drain() {
      draining ??= drainOnce().finally(() => {
        draining = undefined;
      });
      return draining;
    },
    start() {
      stopped = false;
      const tick = () => {
        worker
          .drain()
          .catch((err: unknown) => log.warn({ err }, 'trigger worker could not read the queue'))
          .finally(() => {
            if (!stopped) timer = setTimeout(tick, pollIntervalMs).unref();
          });
      };
      timer = setTimeout(tick, pollIntervalMs).unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await draining;
    },
  };
  return worker;
}

/** The message an unattended run starts from: which trigger fired, and its event (size-capped). */
export function triggerMessage(triggerId: string, payload: unknown): string {
  const json = JSON.stringify(payload, null, 2) ?? 'null';
  const shown = json.length > 8_000 ? `${json.slice(0, 8_000)}\n... (truncated)` : json;
  return `The trigger "${triggerId}" fired. Handle this event:\n\n\`\`\`json\n${shown}\n\`\`\``;
}
