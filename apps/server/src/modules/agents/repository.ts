import { CompiledQuery, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Agent } from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import { jsonHelpers } from '../../db/json.ts';
import type { Database } from '../../db/schema.ts';
import type { AgentProfile } from '../../deps.ts';

export interface AgentFields {
  name: string;
  description: string;
  guidelines: string | null;
}

/** Runs inside the write's transaction (the audit record), so both commit or neither does. */
export type InTransaction<T> = (trx: Kysely<Database>, value: T) => Promise<void>;

/** Tools to attach, in order, with the provider version pinned at attach time. */
export type ToolAttachment = { actionId: number; version: string | null }[];

/** Every query names the owner: another user's agent is simply not found. */
export function createAgentsRepository(db: Db) {
  const k = db.kysely;
  const json = jsonHelpers(db.dialect);

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

  /** One agent as a JSON object with its tools in position order: the list's element and `get`'s row. */
  const agentJson = (eb: ExpressionBuilder<Database, 'agents'>) => {
    const tools = eb
      .selectFrom('agent_tools')
      .innerJoin('actions', 'actions.id', 'agent_tools.action_id')
      .innerJoin('services', 'services.id', 'actions.service_id')
      .select((tb) =>
        json
          .arrayAgg(
            tb,
            json.object({
              id: tb.ref('actions.id'),
              display_name: tb.ref('actions.display_name'),
              name: tb.ref('actions.name'),
              description: tb.ref('actions.description'),
              logo: tb.ref('services.logo'),
              app_name: tb.ref('services.name'),
            }),
            'agent_tools.position',
          )
          .as('tools'),
      )
      .whereRef('agent_tools.agent_id', '=', 'agents.id');
    return json.object({
      id: eb.ref('agents.id'),
      name: eb.ref('agents.name'),
      description: eb.ref('agents.description'),
      guidelines: eb.ref('agents.guidelines'),
      tools: json.subquery(tools),
    });
  };

  const listQuery = (userId: number) =>
    k
      .selectFrom('agents')
      .select((eb) => json.text(json.arrayAgg(eb, agentJson(eb), 'agents.id')).as('body'))
      .where('agents.user_id', '=', userId);
  // The list's SQL is the same for every user (the JSON keys are literals, the user id its only
  // parameter), so it is compiled once instead of rebuilt by the query builder on every call.
  const compiledList = listQuery(0).compile();
  if (compiledList.parameters.length !== 1)
    throw new Error('The agent list query must take only the user id');
  const listSql = compiledList.sql;

  return {
    /**
     * The caller's agents with their tools, as the JSON text of the list response, written by the
     * database in one query: the busiest API call forwards it without building a row object per
     * tool or serializing again. Agents in id order, each agent's tools in their position order.
     */
    async listJson(userId: number): Promise<string> {
      const { rows } = await k.executeQuery<{ body: string }>(CompiledQuery.raw(listSql, [userId]));
      return rows[0]!.body;
    },

    async get(userId: number, agentId: number): Promise<Agent | undefined> {
      const row = await k
        .selectFrom('agents')
        .select((eb) => json.text(agentJson(eb).$castTo<string>()).as('body'))
        .where('user_id', '=', userId)
        .where('id', '=', agentId)
        .executeTakeFirst();
      return row && (JSON.parse(row.body) as Agent);
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

    async profile(userId: number, agentId: number): Promise<AgentProfile | undefined> {
      const row = await k
        .selectFrom('agents')
        .select(['id', 'name', 'description', 'guidelines', 'allow_unattended_writes'])
        .where('user_id', '=', userId)
        .where('id', '=', agentId)
        .executeTakeFirst();
      return (
        row && {
          id: row.id,
          name: row.name,
          description: row.description,
          guidelines: row.guidelines,
          allowUnattendedWrites: row.allow_unattended_writes === 1,
        }
      );
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

    create(userId: number, fields: AgentFields, tools: ToolAttachment, record: InTransaction<number>) {
      return k.transaction().execute(async (trx) => {
        const now = new Date().toISOString();
        const { id } = await trx
          .insertInto('agents')
          .values({ user_id: userId, ...fields, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        await replaceTools(trx, id, tools);
        await record(trx, id);
        return id;
      });
    },

    /** Returns false when the user has no such agent. */
    update(
      userId: number,
      agentId: number,
      fields: Partial<AgentFields>,
      tools: ToolAttachment | undefined,
      record: InTransaction<number>,
    ) {
      return k.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('agents')
          .set({ ...fields, updated_at: new Date().toISOString() })
          .where('user_id', '=', userId)
          .where('id', '=', agentId)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        if (tools) await replaceTools(trx, agentId, tools);
        await record(trx, agentId);
        return true;
      });
    },

    delete(userId: number, agentId: number, record: InTransaction<number>) {
      return k.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('agents')
          .where('user_id', '=', userId)
          .where('id', '=', agentId)
          .executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) return false;
        await record(trx, agentId);
        return true;
      });
    },

    /** A pending trigger event; `record` is left out where nothing is audited (provider events). */
    createTriggerEvent(
      userId: number,
      agentId: number,
      triggerId: string,
      payload: string,
      record?: InTransaction<number>,
    ) {
      return k.transaction().execute(async (trx) => {
        const now = new Date().toISOString();
        const { id } = await trx
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
        await record?.(trx, id);
        return id;
      });
    },
  };
}
