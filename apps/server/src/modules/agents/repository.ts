import type { Kysely } from 'kysely';
import type { Agent } from '@cadre/contract';
import { compiledOnce } from '../../db/compiled.ts';
import type { Db } from '../../db/database.ts';
import { jsonHelpers } from '../../db/json.ts';
import { bumpListVersions, listVersionReader } from '../../db/list-versions.ts';
import type { Database } from '../../db/schema.ts';
import type { KnowledgeHistory } from './ports.ts';
import type { AgentProfile, AgentSummary } from './profile.ts';
import { activeConnection } from '../services/index.ts';
import { actionsWithService } from '../tools/index.ts';
import { agentJsonOf } from './agent-json.ts';
import { ownedAgent } from './owned-agent.ts';
import { listQueries } from './list-queries.ts';
import {
  AGENT_FIELD_COLUMNS,
  agentFieldsOf,
  attachedTools,
  ownPermission,
  startersToText,
} from './stored-fields.ts';
import { dropDetachedPermissions } from './tool-permissions.ts';
import { versionQueries, type AfterSave, type InTransaction, type VersionNote } from './versions.ts';
import { writeSettingColumns, writeSettingsFromColumns, type WriteSettings } from './write-settings.ts';

export interface AgentFields extends Partial<WriteSettings> {
  name: string;
  description: string;
  guidelines: string | null;
  icon?: string | null;
  color?: string | null;
  /** Left out by agents set up by the server, which have none. */
  starters?: string[];
  /** Origins allowed to embed the copilot; left out where they do not change. */
  embed_origins?: string[];
  /** An offered model's id; null or left out: the default. */
  model_id?: string | null;
  /** 0-2; null or left out: the provider's default. */
  temperature?: number | null;
}

/** The fields as the agents table stores them (both lists as JSON text, null when empty). */
const toRow = <F extends Partial<AgentFields>>({
  starters,
  embed_origins,
  allowUnattendedWrites,
  apiWrites,
  ...rest
}: F) => ({
  ...rest,
  ...(starters === undefined ? {} : { starters: startersToText(starters) }),
  ...(embed_origins === undefined ? {} : { embed_origins: startersToText(embed_origins) }),
  ...writeSettingColumns({ allowUnattendedWrites, apiWrites }),
});

/** Tools to attach, in order, with the provider version pinned at attach time. */
export type ToolAttachment = { actionId: number; version: string | null }[];

/** Every query names the owner: another user's agent is simply not found. */
export function createAgentsRepository(db: Db, offeredModels: readonly string[], history?: KnowledgeHistory) {
  const k = db.kysely;
  const json = jsonHelpers(db.dialect);
  const agentJson = agentJsonOf(json, offeredModels);
  const versions = versionQueries(k, history);
  /** The chat's read of the agent, at every turn: compiled once. */
  const profileRow = compiledOnce(
    k,
    (userId: number, agentId: number) =>
      ownedAgent(k, userId, agentId).select([
        'id',
        ...AGENT_FIELD_COLUMNS,
        'allow_unattended_writes',
        'api_writes',
      ]),
    -1,
    -2,
  );

  const replaceTools = async (trx: Kysely<Database>, agentId: number, tools: ToolAttachment) => {
    await dropDetachedPermissions(
      trx,
      agentId,
      tools.map((t) => t.actionId),
    );
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

  const insertAgent = async (
    trx: Kysely<Database>,
    userId: number,
    fields: AgentFields,
    tools: ToolAttachment,
  ) => {
    const now = new Date().toISOString();
    const { id } = await trx
      .insertInto('agents')
      .values({ user_id: userId, ...toRow(fields), created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await replaceTools(trx, id, tools);
    await bumpListVersions(trx, [userId]);
    return id;
  };

  /** One agent as the API shows it, read through `executor` (the database or an open transaction). */
  const getWith = async (executor: Kysely<Database>, userId: number, agentId: number) => {
    const row = await ownedAgent(executor, userId, agentId)
      .select((eb) => json.text(agentJson(eb).$castTo<string>()).as('body'))
      .executeTakeFirst();
    return row && (JSON.parse(row.body) as Agent);
  };

  const lists = listQueries(k, json, agentJson);

  return {
    ...lists,
    /** The user's list version (db/list-versions.ts); every write below raises it. */
    listVersion: listVersionReader(k),

    get(userId: number, agentId: number): Promise<Agent | undefined> {
      return getWith(k, userId, agentId);
    },

    /** The agent's fields and tools with their stable keys (versions, export). */
    snapshot: (userId: number, agentId: number) => versions.snapshot(k, userId, agentId),
    listVersions: versions.list,
    findVersion: versions.find,
    restoreFiles: versions.restoreFiles,

    exists(userId: number, agentId: number) {
      return ownedAgent(k, userId, agentId).select('id').executeTakeFirst().then(Boolean);
    },

    /** The user's agents, oldest first, as lists outside this module show them. */
    async summaries(userId: number): Promise<AgentSummary[]> {
      const rows = await k
        .selectFrom('agents')
        .select(['id', 'name', 'description', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        description: r.description,
        createdAt: r.created_at,
      }));
    },

    /** The user's agents with at least one tool of the service attached. */
    async idsUsingService(userId: number, serviceId: number) {
      const rows = await k
        .selectFrom('agents')
        .innerJoin('agent_tools', 'agent_tools.agent_id', 'agents.id')
        .innerJoin(actionsWithService().as('tool'), 'tool.action_id', 'agent_tools.action_id')
        .select('agents.id')
        .distinct()
        .where('agents.user_id', '=', userId)
        .where('tool.service_id', '=', serviceId)
        .execute();
      return rows.map((r) => r.id);
    },

    async profile(userId: number, agentId: number): Promise<AgentProfile | undefined> {
      const [row] = await profileRow(userId, agentId);
      if (!row) return undefined;
      const { allow_unattended_writes, api_writes, ...fields } = row;
      return {
        ...agentFieldsOf(fields),
        ...writeSettingsFromColumns({ allow_unattended_writes, api_writes }),
        modelId: fields.model_id,
      };
    },

    /**
     * Creates the agent and answers with it as the API shows it, read inside the same transaction:
     * once the write commits its answer exists, so a committed create never answers 5xx.
     */
    create(
      userId: number,
      fields: AgentFields,
      tools: ToolAttachment,
      note: VersionNote,
      record: AfterSave,
      recordAnswer?: InTransaction<Agent>,
    ): Promise<Agent> {
      return k.transaction().execute(async (trx) => {
        const id = await insertAgent(trx, userId, fields, tools);
        const version = await versions.record(trx, userId, id, note);
        await record(trx, id, version);
        const agent = await getWith(trx, userId, id);
        if (!agent) throw new Error('A created agent could not be read back in its transaction');
        await recordAnswer?.(trx, agent);
        return agent;
      });
    },

    /** `create` inside a transaction the caller holds, with nothing recorded. */
    provision: insertAgent,

    /** The tools attached to the user's agent with their services, in the agent's order. */
    listTools(userId: number, agentId: number) {
      return attachedTools(k, agentId)
        .innerJoin('agents', 'agents.id', 'agent_tools.agent_id')
        .where('agents.user_id', '=', userId)
        .leftJoin('tool_permissions', ownPermission)
        .select([
          'tool.action_id',
          'tool.action_name as name',
          'tool.display_name',
          'tool.description',
          'tool.input_schema',
          'tool.effect',
          'tool.provider',
          'tool.provider_key',
          'tool.owner_user_id',
          'tool.service_enabled as enabled',
          'tool_permissions.source as allowed_from',
          (eb) => eb.exists(activeConnection(eb.val(userId), eb.ref('tool.service_id'))).as('connected'),
        ])
        .execute();
    },

    /** The updated agent, recorded as a new version; undefined when the user has no such agent. */
    update(
      userId: number,
      agentId: number,
      fields: Partial<AgentFields>,
      tools: ToolAttachment | undefined,
      note: VersionNote,
      record: AfterSave,
    ) {
      return k.transaction().execute(async (trx) => {
        const before = await versions.stateBeforeFirstVersion(trx, userId, agentId);
        const result = await trx
          .updateTable('agents')
          .set({ ...toRow(fields), updated_at: new Date().toISOString() })
          .where('user_id', '=', userId)
          .where('id', '=', agentId)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return undefined;
        if (tools) await replaceTools(trx, agentId, tools);
        await bumpListVersions(trx, [userId]);
        const version = await versions.record(trx, userId, agentId, note, before);
        await record(trx, agentId, version);
        // Read in the transaction, as for create: a committed update answers with its result.
        return getWith(trx, userId, agentId);
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
        await bumpListVersions(trx, [userId]);
        await record(trx, agentId);
        return true;
      });
    },
  };
}
