import type { FastifyInstance } from 'fastify';
import {
  chatDepsFrom,
  createChatService,
  type ChatAppDeps,
  type ModelSelection,
  type ToolExecutor,
} from '../chat/index.ts';
import { createTriggerWorker, triggerMessage } from './worker.ts';

/**
 * Stored trigger events run the agent unattended (issue: "Triggers"): its own thread, the chat
 * limits, and write/send tools refused unless the owner allowed unattended writes for the agent.
 */
export function registerTriggers(
  app: FastifyInstance,
  deps: ChatAppDeps,
  executor: ToolExecutor,
  /** The chat's model when the app was given one (tests), so trigger runs answer with it too. */
  selection?: ModelSelection,
) {
  const { config, db } = deps;
  const chatDeps = chatDepsFrom(deps, app.log, selection);
  const { runs } = chatDeps;
  const chat = createChatService({ ...chatDeps, executor });
  const worker = createTriggerWorker({
    db,
    log: app.log,
    instanceId: deps.lifecycle.instanceId,
    maxAttempts: config.triggers.maxAttempts,
    draining: () => deps.lifecycle.draining,
    run: async ({ eventId, userId, agentId, triggerId, payload, threadId, attempt }) => {
      // A retry follows a run lost with its instance: end that run first, so the thread is free.
      if (attempt > 1) await runs.sweep();
      return chat.runUnattended({
        userId,
        agentId,
        threadId,
        text: triggerMessage(triggerId, payload),
        threadName: `Trigger ${triggerId}`,
        idempotencyPrefix: `trigger-event:${eventId}`,
      });
    },
  });
  app.addHook('onReady', async () => worker.start());
  // Shutting down: take no new events; the one running has until SHUTDOWN_TIMEOUT_MS (the runs).
  deps.lifecycle.onDrain(() => void worker.stop());
  app.addHook('onClose', async () => worker.stop());
  return worker;
}
