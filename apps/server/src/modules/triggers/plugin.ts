import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { createChatService, selectModel, type ToolExecutor } from '../chat/index.ts';
import { createTriggerWorker, triggerMessage } from './worker.ts';

/**
 * Stored trigger events run the agent unattended (issue: "Triggers"): its own thread, the chat
 * limits, and write/send tools refused unless the owner allowed unattended writes for the agent.
 */
export function registerTriggers(app: FastifyInstance, deps: AppDeps, executor: ToolExecutor) {
  const { config, db } = deps;
  const chat = createChatService({
    db,
    agents: deps.agents,
    audit: deps.audit,
    executor,
    selection: selectModel(config.llm),
    limits: {
      maxSteps: config.llm.maxSteps,
      maxToolCallsPerTurn: config.llm.maxToolCallsPerTurn,
      maxOutputTokens: config.llm.maxOutputTokens,
    },
  });
  const worker = createTriggerWorker({
    db,
    log: app.log,
    run: ({ userId, agentId, triggerId, payload }) =>
      chat.runUnattended({
        userId,
        agentId,
        text: triggerMessage(triggerId, payload),
        threadName: `Trigger ${triggerId}`,
      }),
  });
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => worker.stop());
  return worker;
}
