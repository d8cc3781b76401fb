import type { Db } from '../../db/database.ts';
import type { AgentDirectory, AuditLog } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import type { RecordAnswer } from '../../http/idempotency.ts';
import type { TriggerDelivery } from '../tools/index.ts';
import { createTriggerRepository } from './repository.ts';

/** Stores trigger events for the worker; the agents they name are checked through the agents port. */
export function createTriggersService(deps: { db: Db; audit: AuditLog; agents: AgentDirectory }) {
  const repo = createTriggerRepository(deps.db);
  return {
    /** A pending event for one of the caller's agents (another user's agent answers 404). */
    async queue(
      userId: number,
      agentId: number,
      triggerId: string,
      payload: unknown,
      /** Stores the answer for an Idempotency-Key, in the insert's transaction. */
      recordAnswer?: RecordAnswer<{ id: number }>,
    ): Promise<number> {
      if (!(await deps.agents.exists(userId, agentId))) throw notFound('Agent not found');
      return repo.insert(userId, agentId, triggerId, JSON.stringify(payload), async (trx, id) => {
        await deps.audit.record(
          {
            userId,
            action: 'agent.trigger',
            objectType: 'trigger_event',
            objectId: id,
            detail: { agent_id: agentId, trigger_id: triggerId },
          },
          trx,
        );
        await recordAnswer?.(trx, { id });
      });
    },
  };
}

export type TriggersService = ReturnType<typeof createTriggersService>;

/**
 * A provider's trigger event (a Composio webhook) goes to every agent of the connection's owner
 * that has a tool of that service attached: those agents are the ones that work with the service.
 */
export function providerTriggerStore(deps: { db: Db; agents: AgentDirectory }) {
  const repo = createTriggerRepository(deps.db);
  return async (event: TriggerDelivery) => {
    for (const agentId of await deps.agents.withServiceTools(event.userId, event.serviceId)) {
      await repo.insert(
        event.userId,
        agentId,
        event.triggerSlug ?? event.triggerId ?? 'provider-event',
        JSON.stringify(event.payload ?? null),
      );
    }
  };
}
