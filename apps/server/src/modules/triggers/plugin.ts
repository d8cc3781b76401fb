import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { createAgentsRepository } from '../agents/repository.ts';
import { createChatService, selectModel, type ToolExecutor } from '../chat/index.ts';
import type { TriggerDelivery } from '../tools/service.ts';
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

/**
 * A provider's trigger event (a Composio webhook) goes to every agent of the connection's owner
 * that has a tool of that service attached: those agents are the ones that work with the service.
 */
export function providerTriggerStore(deps: Pick<AppDeps, 'db'>) {
  const repo = createAgentsRepository(deps.db);
  return async (event: TriggerDelivery) => {
    const agents = await deps.db.kysely
      .selectFrom('agents')
      .innerJoin('agent_tools', 'agent_tools.agent_id', 'agents.id')
      .innerJoin('actions', 'actions.id', 'agent_tools.action_id')
      .select('agents.id')
      .distinct()
      .where('agents.user_id', '=', event.userId)
      .where('actions.service_id', '=', event.serviceId)
      .execute();
    for (const agent of agents) {
      await repo.createTriggerEvent(
        event.userId,
        agent.id,
        event.triggerSlug ?? event.triggerId ?? 'provider-event',
        JSON.stringify(event.payload ?? null),
      );
    }
  };
}
