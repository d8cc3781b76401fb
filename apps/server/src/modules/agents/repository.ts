import type { Kysely } from 'kysely';
import type { Tool } from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

export interface AgentRow {
  id: number;
  name: string;
  description: string;
  guidelines: string | null;
}

export interface AgentFields {
  name: string;
  description: string;
  guidelines: string | null;
}

/** Tools to attach, in order, with the provider version pinned at attach time. */
export type ToolAttachment = { actionId: number; version: string | null }[];

/** Every query names the owner: another user's agent is simply not found. */
export function createAgentsRepository(db: Db) {
  const k = db.kysely;

  const toolsQuery = (trx: Kysely<Database>, userId: number) =>
    trx
      .selectFrom('agent_tools')
      .innerJoin('agents', 'agents.id', 'agent_tools.agent_id')
      .innerJoin('actions', 'actions.id', 'agent_tools.action_id')
      .innerJoin('services', 'services.id', 'actions.service_id')
      .select([
        'agent_tools.agent_id',
        'actions.id',
        'actions.display_name',
        'actions.name',
        'actions.description',
        'services.logo',
        'services.name as app_name',
      ])
      .where('agents.user_id', '=', userId)
      .orderBy('agent_tools.agent_id')
      .orderBy('agent_tools.position');

  const groupTools = (rows: ({ agent_id: number } & Tool)[]) => {
    const byAgent = new Map<number, Tool[]>();
    for (const { agent_id, ...tool } of rows) {
      let list = byAgent.get(agent_id);
      if (!list) byAgent.set(agent_id, (list = []));
      list.push(tool);
    }
    return byAgent;
  };

  const replaceTools = async (trx: Kysely<Database>, agentId: number, tools: ToolAttachment) => {
    await trx.deleteFrom('agent_tools').where('agent_id', '=', agentId).execute();
    if (tools.length) {
      await trx
        .insertInto('agent_tools')
        .values(
          tools.map((t, position) => ({
            agent_id: agentId,
            action_id: t.actionId,
            version: t.version,
            position,
          })),
        )
        .execute();
    }
  };

  return {
    async list(userId: number) {
      const [agents, tools] = await Promise.all([
        k
          .selectFrom('agents')
          .select(['id', 'name', 'description', 'guidelines'])
          .where('user_id', '=', userId)
          .orderBy('id')
          .execute(),
        toolsQuery(k, userId).execute(),
      ]);
      const byAgent = groupTools(tools);
      return agents.map((a) => ({ ...a, tools: byAgent.get(a.id) ?? [] }));
    },

    async get(userId: number, agentId: number) {
      const [agent, tools] = await Promise.all([
        k
          .selectFrom('agents')
          .select(['id', 'name', 'description', 'guidelines'])
          .where('user_id', '=', userId)
          .where('id', '=', agentId)
          .executeTakeFirst(),
        toolsQuery(k, userId).where('agents.id', '=', agentId).execute(),
      ]);
      return agent ? { ...agent, tools: groupTools(tools).get(agent.id) ?? [] } : undefined;
    },

    exists(userId: number, agentId: number) {
      return k
        .selectFrom('agents')
        .select('id')
        .where('user_id', '=', userId)
        .where('id', '=', agentId)
        .executeTakeFirst()
        .then(Boolean);
    },

    /** The subset of `ids` naming actions the user may attach: catalog services or their own. */
    visibleActions(userId: number, ids: number[]) {
      if (!ids.length) return Promise.resolve([]);
      return k
        .selectFrom('actions')
        .innerJoin('services', 'services.id', 'actions.service_id')
        .select(['actions.id', 'actions.version'])
        .where('actions.id', 'in', ids)
        .where((eb) =>
          eb.or([eb('services.owner_user_id', 'is', null), eb('services.owner_user_id', '=', userId)]),
        )
        .execute();
    },

    create(userId: number, fields: AgentFields, tools: ToolAttachment) {
      return k.transaction().execute(async (trx) => {
        const now = new Date().toISOString();
        const { id } = await trx
          .insertInto('agents')
          .values({ user_id: userId, ...fields, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        await replaceTools(trx, id, tools);
        return id;
      });
    },

    /** Returns false when the user has no such agent. */
    update(userId: number, agentId: number, fields: Partial<AgentFields>, tools?: ToolAttachment) {
      return k.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('agents')
          .set({ ...fields, updated_at: new Date().toISOString() })
          .where('user_id', '=', userId)
          .where('id', '=', agentId)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        if (tools) await replaceTools(trx, agentId, tools);
        return true;
      });
    },

    async delete(userId: number, agentId: number) {
      const result = await k
        .deleteFrom('agents')
        .where('user_id', '=', userId)
        .where('id', '=', agentId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async createTriggerEvent(userId: number, agentId: number, triggerId: string, payload: string) {
      const now = new Date().toISOString();
      const row = await k
        .insertInto('trigger_events')
        .values({
          user_id: userId,
          agent_id: agentId,
          trigger_id: triggerId,
          payload,
          status: 'pending',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
  };
}
