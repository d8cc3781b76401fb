import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { createTriggerRepository } from './repository.ts';

/**
 * Runs stored trigger events (`POST /agents/{id}/triggers/{trigger_id}`, provider webhooks) as
 * unattended agent runs. Every instance polls the `trigger_events` table and claims an event with a
 * conditional UPDATE, so each event runs once however many instances there are; an event left
 * `running` by an instance that died is claimed again after `staleAfterMs`.
 */
export interface TriggerRun {
  userId: number;
  agentId: number;
  triggerId: string;
  payload: unknown;
}

export type RunTrigger = (run: TriggerRun) => Promise<{ threadId: string; status: string }>;

export interface TriggerWorkerOptions {
  db: Db;
  log: FastifyBaseLogger;
  run: RunTrigger;
  pollIntervalMs?: number;
  staleAfterMs?: number;
  now?: () => number;
}

export interface TriggerWorker {
  /** Claims and runs pending events until none is left; resolves with how many ran. */
  drain(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export function createTriggerWorker(options: TriggerWorkerOptions): TriggerWorker {
  const { log, run } = options;
  const repo = createTriggerRepository(options.db);
  const pollIntervalMs = options.pollIntervalMs ?? 2_000;
  const staleAfterMs = options.staleAfterMs ?? 10 * 60_000;
  const now = options.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  let draining: Promise<number> | undefined;
  let stopped = false;

  const claimNext = () =>
    repo.claimNext(new Date(now() - staleAfterMs).toISOString(), new Date(now()).toISOString());
  const finish = (id: number, status: 'done' | 'failed', threadId: string | null) =>
    repo.finish(id, status, threadId, new Date(now()).toISOString());

  async function drainOnce(): Promise<number> {
    let ran = 0;
    while (!stopped) {
      const event = await claimNext();
      if (event === undefined) break;
      if (event === null) continue;
      let payload: unknown = null;
      try {
        payload = JSON.parse(event.payload);
      } catch {
        payload = event.payload;
      }
      try {
        const result = await run({
          userId: event.user_id,
          agentId: event.agent_id,
          triggerId: event.trigger_id,
          payload,
        });
        await finish(event.id, result.status === 'error' ? 'failed' : 'done', result.threadId);
      } catch (err) {
        log.warn({ err, triggerEvent: event.id }, 'trigger run failed');
        await finish(event.id, 'failed', null);
      }
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
