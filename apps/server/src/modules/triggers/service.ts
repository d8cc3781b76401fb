import {
  TRIGGER_EVENT_STATUSES,
  TRIGGER_EVENTS_SHOWN,
  type TriggerEvent,
  type TriggerEventStatus,
} from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import type { AuditLog } from '../../kernel.ts';
import type { TriggerAgents } from './ports.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { RecordAnswer } from '../../http/idempotency.ts';
import { hitRateLimit } from '../../security/rate-limit.ts';
import type { TriggerDelivery } from '../tools/index.ts';
import { createTriggerRepository } from './repository.ts';

const RATE_WINDOW_SECONDS = 60;

/** The owner leads the key, so deleting a user forgets their agents' counters (user-data.ts). */
export const triggerRateKeyPrefix = (userId: number) => `trigger:${userId}:`;

/** A status the worker may write later than this release reads shows as failed, not as a 500. */
const statusOf = (value: string): TriggerEventStatus =>
  (TRIGGER_EVENT_STATUSES as readonly string[]).includes(value) ? (value as TriggerEventStatus) : 'failed';

/** Stores trigger events for the worker; the agents they name are checked through the agents port. */
export function createTriggersService(deps: {
  db: Db;
  audit: AuditLog;
  agents: Pick<TriggerAgents, 'exists'>;
  /** Calls one agent's triggers accept a minute (TRIGGERS_PER_MINUTE). */
  perMinute: number;
  /** The rate limit's time (milliseconds since the epoch); tests fix it inside one window. */
  now?: () => number;
}) {
  const repo = createTriggerRepository(deps.db);

  /**
   * Counted per agent in the database, so every instance behind a load balancer shares the count.
   * Counted after the caller is known to own the agent (or to hold its secret): nobody else can
   * use up an agent's calls.
   */
  async function limit(userId: number, agentId: number) {
    const hit = await hitRateLimit(deps.db, `${triggerRateKeyPrefix(userId)}${agentId}`, {
      limit: deps.perMinute,
      windowSeconds: RATE_WINDOW_SECONDS,
      now: deps.now?.(),
    });
    if (!hit.allowed) {
      throw new HttpError(
        'rate_limited',
        `Too many trigger calls: this agent accepts ${deps.perMinute} a minute; retry in ${hit.retryAfterSeconds} seconds`,
        { 'retry-after': String(hit.retryAfterSeconds) },
      );
    }
  }

  return {
    /** A pending event for one of the caller's agents (another user's agent answers 404). */
    async queue(
      userId: number,
      agentId: number,
      triggerId: string,
      payload: unknown,
      /** Stores the answer for an Idempotency-Key, in the insert's transaction. */
      recordAnswer?: RecordAnswer<{ id: number }>,
      /** How the call proved itself, for the audit record. */
      via: 'token' | 'signature' = 'token',
    ): Promise<number> {
      if (!(await deps.agents.exists(userId, agentId))) throw notFound('Agent not found');
      await limit(userId, agentId);
      return repo.insert(userId, agentId, triggerId, JSON.stringify(payload), async (trx, id) => {
        await deps.audit.record(
          {
            userId,
            action: 'agent.trigger',
            objectType: 'trigger_event',
            objectId: id,
            detail: { agent_id: agentId, trigger_id: triggerId, via },
          },
          trx,
        );
        await recordAnswer?.(trx, { id });
      });
    },

    /** The agent's last events with their state and thread, newest first. */
    async events(userId: number, agentId: number): Promise<TriggerEvent[]> {
      if (!(await deps.agents.exists(userId, agentId))) throw notFound('Agent not found');
      const rows = await repo.recent(userId, agentId, TRIGGER_EVENTS_SHOWN);
      return rows.map((row) => ({
        id: row.id,
        trigger_id: row.trigger_id,
        status: statusOf(row.status),
        attempts: row.attempts,
        thread_id: row.thread_id,
        received_at: row.created_at,
        updated_at: row.updated_at,
      }));
    },
  };
}

export type TriggersService = ReturnType<typeof createTriggersService>;

/**
 * A provider's trigger event (a Composio webhook) goes to every agent of the connection's owner
 * that has a tool of that service attached: those agents are the ones that work with the service.
 */
export function providerTriggerStore(deps: { db: Db; agents: Pick<TriggerAgents, 'withServiceTools'> }) {
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
