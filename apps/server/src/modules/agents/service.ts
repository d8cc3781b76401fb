import type { Agent } from '@cadre/contract';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { notFound, ValidationFailure } from '../../http/errors.ts';
import type { AuditLog } from '../../kernel.ts';
import type { KnowledgeHistory } from './ports.ts';
import type { AgentProfile, AgentSummary } from './profile.ts';
import type { RecordAnswer } from '../../http/idempotency.ts';
import { embedOriginQueries } from './embed-origins.ts';
import { OFFLINE_MODEL } from '../../config.ts';
import { createToolCatalog } from '../tools/index.ts';
import { attachedToolOf, type AttachedTool } from './attached-tool.ts';
import { agentExchange } from './exchange.ts';
import { createAgentsRepository, type AgentFields, type ToolAttachment } from './repository.ts';
import { toolPermissions } from './tool-permissions.ts';
import { changedFields, recordWriteSettings } from './update-audit.ts';
import { recordFilesChange } from './files-version.ts';
import { restoreVersion } from './restore.ts';
import { DEFAULT_WRITE_SETTINGS, writeSettingsOf, type WriteSettingInput } from './write-settings.ts';
import { authorOf, type Saver } from './versions.ts';

export interface AgentCreateInput
  extends Omit<AgentFields, 'allowUnattendedWrites' | 'apiWrites'>, WriteSettingInput {
  tool_ids: number[];
  duplicated_from?: number;
}

export interface AgentUpdateInput
  extends Partial<Omit<AgentFields, 'allowUnattendedWrites' | 'apiWrites'>>, WriteSettingInput {
  tool_ids?: number[];
}

const agentNotFound = () => notFound('Agent not found');

export interface AgentsServiceOptions {
  /** The ids of the models on offer (LLM_MODELS); an agent may name only these. */
  offeredModels?: readonly string[];
  /** Which files each version lists, and what a restore does to them (the knowledge module). */
  knowledgeHistory?: KnowledgeHistory;
}

export function createAgentsService(
  db: Db,
  audit: AuditLog,
  { offeredModels = [OFFLINE_MODEL], knowledgeHistory }: AgentsServiceOptions = {},
) {
  const repo = createAgentsRepository(db, offeredModels, knowledgeHistory);
  const catalog = createToolCatalog(db);
  const afterAgentDelete: (() => Promise<void>)[] = [];
  const permissions = toolPermissions(db, audit);
  const offered = (modelId: string | null | undefined) => !modelId || offeredModels.includes(modelId);

  /** A model id sent on save must be on offer (null chooses the default). */
  function checkModel(modelId: string | null | undefined) {
    if (offered(modelId)) return;
    throw new ValidationFailure([
      {
        loc: ['body', 'model_id'],
        msg: `Unknown model '${modelId}': GET /api/v1/models lists the models on offer`,
        type: 'unknown_model',
      },
    ]);
  }

  /** The allowed tools an update would detach (their "Allow without asking" goes with them). */
  async function revokedBy(userId: number, agentId: number, tools: ToolAttachment | undefined) {
    if (!tools) return [];
    const kept = new Set(tools.map((t) => t.actionId));
    const allowed = await permissions.list(userId, agentId);
    return allowed.filter((p) => p.mode === 'allow' && !kept.has(p.action_id)).map((p) => p.action_id);
  }

  /**
   * Checks tool ids against the actions the user can see. Duplicates are dropped (first wins);
   * an id the user cannot see (another user's service) is reported exactly like a missing one.
   */
  async function resolveTools(userId: number, toolIds: number[]): Promise<ToolAttachment> {
    const unique = [...new Set(toolIds)];
    const found = new Map((await catalog.visibleActions(userId, unique)).map((a) => [a.id, a.version]));
    const unknown = unique.filter((id) => !found.has(id));
    if (unknown.length) {
      throw new ValidationFailure([
        { loc: ['body', 'tool_ids'], msg: `Unknown tool ids: ${unknown.join(', ')}`, type: 'unknown_tool' },
      ]);
    }
    return unique.map((id) => ({ actionId: id, version: found.get(id) ?? null }));
  }

  return {
    /** The list response's JSON text (see the repository's `listJson`). */
    listJson: (userId: number): Promise<string> => repo.listJson(userId),
    /** One page of the list (see the repository's `pageJson`). */
    pageJson: (userId: number, afterId: number, limit: number) => repo.pageJson(userId, afterId, limit),
    /** The user's list version (db/list-versions.ts): it changes with everything the list shows. */
    listVersion: repo.listVersion,
    /** What shapes the list's JSON on this instance besides the data (see list-queries.ts). */
    listShape: repo.shape,

    /** Whether the user owns the agent (for other modules that bind something to an agent). */
    exists: (userId: number, agentId: number): Promise<boolean> => repo.exists(userId, agentId),

    /** The user's agents that use a service (a provider's trigger event goes to them). */
    withServiceTools: (userId: number, serviceId: number): Promise<number[]> =>
      repo.idsUsingService(userId, serviceId),

    async listTools(userId: number, agentId: number): Promise<AttachedTool[]> {
      return (await repo.listTools(userId, agentId)).map(attachedToolOf);
    },

    /** The agents a module sets up for its own users (a demo's), inside the caller's transaction. */
    provision: (userId: number, agent: AgentFields, actionIds: number[], trx: Kysely<Database>) =>
      repo.provision(
        trx,
        userId,
        agent,
        actionIds.map((actionId) => ({ actionId, version: null })),
      ),

    profile: (userId: number, agentId: number): Promise<AgentProfile | undefined> =>
      repo.profile(userId, agentId),

    summaries: (userId: number): Promise<AgentSummary[]> => repo.summaries(userId),

    /** Per write/send tool of the agent: "Ask every time" or "Allow without asking". */
    toolPermissions: permissions.list,
    setToolPermission: permissions.set,

    async allowWithoutAsking(userId: number, agentId: number, actionId: number, approvalId: string) {
      await permissions.set(userId, agentId, actionId, 'allow', 'chat', { approval_id: approvalId });
    },

    async get(userId: number, agentId: number): Promise<Agent> {
      const agent = await repo.get(userId, agentId);
      if (!agent) throw agentNotFound();
      return agent;
    },

    /** `recordAnswer` stores the answer for an Idempotency-Key, in the create's transaction. */
    async create(user: Saver, input: AgentCreateInput, recordAnswer?: RecordAnswer<Agent>): Promise<Agent> {
      const userId = user.id;
      if (input.duplicated_from !== undefined && !(await repo.exists(userId, input.duplicated_from))) {
        throw new ValidationFailure([
          { loc: ['body', 'duplicated_from'], msg: 'Unknown agent', type: 'unknown_agent' },
        ]);
      }
      checkModel(input.model_id);
      const tools = await resolveTools(userId, input.tool_ids);
      return repo.create(
        userId,
        {
          name: input.name,
          description: input.description,
          guidelines: input.guidelines,
          icon: input.icon ?? null,
          color: input.color ?? null,
          starters: input.starters,
          embed_origins: input.embed_origins,
          model_id: input.model_id ?? null,
          temperature: input.temperature ?? null,
          ...DEFAULT_WRITE_SETTINGS,
          ...writeSettingsOf(input),
        },
        tools,
        {
          reason: input.duplicated_from === undefined ? 'create' : 'duplicate',
          savedBy: userId,
          author: authorOf(user),
        },
        async (trx, newId) => {
          await audit.record(
            {
              userId,
              action: input.duplicated_from === undefined ? 'agent.create' : 'agent.duplicate',
              objectType: 'agent',
              objectId: newId,
              detail:
                input.duplicated_from === undefined
                  ? { tools: tools.length }
                  : { tools: tools.length, duplicated_from: input.duplicated_from },
            },
            trx,
          );
          const agent = { userId, agentId: newId };
          await recordWriteSettings(audit, trx, agent, DEFAULT_WRITE_SETTINGS, writeSettingsOf(input));
        },
        recordAnswer,
      );
    },

    async update(user: Saver, agentId: number, input: AgentUpdateInput): Promise<Agent> {
      const userId = user.id;
      // Ownership first: Bob learns nothing about Alice's agent, not even whether his body is valid.
      const before = await repo.profile(userId, agentId);
      if (!before) throw agentNotFound();
      checkModel(input.model_id);
      const tools = input.tool_ids === undefined ? undefined : await resolveTools(userId, input.tool_ids);
      const fields: Partial<AgentFields> = {};
      if (input.name !== undefined) fields.name = input.name;
      if (input.description !== undefined) fields.description = input.description;
      if (input.guidelines !== undefined) fields.guidelines = input.guidelines;
      if (input.icon !== undefined) fields.icon = input.icon;
      if (input.color !== undefined) fields.color = input.color;
      if (input.starters !== undefined) fields.starters = input.starters;
      if (input.embed_origins !== undefined) fields.embed_origins = input.embed_origins;
      if (input.model_id !== undefined) fields.model_id = input.model_id;
      if (input.temperature !== undefined) fields.temperature = input.temperature;
      const settings = writeSettingsOf(input);
      Object.assign(fields, settings);
      const note = { reason: 'update', savedBy: userId, author: authorOf(user) } as const;
      const revoked = await revokedBy(userId, agentId, tools);
      const updated = await repo.update(userId, agentId, fields, tools, note, async (trx) => {
        await audit.record(
          {
            userId,
            action: 'agent.update',
            objectType: 'agent',
            objectId: agentId,
            detail: revoked.length
              ? { fields: changedFields(input), tool_permissions_revoked: revoked }
              : { fields: changedFields(input) },
          },
          trx,
        );
        await recordWriteSettings(audit, trx, { userId, agentId }, before, settings);
      });
      if (!updated) throw agentNotFound();
      return updated;
    },

    /** The agent's saved versions, newest first. */
    async versions(userId: number, agentId: number) {
      if (!(await repo.exists(userId, agentId))) throw agentNotFound();
      return repo.listVersions(userId, agentId);
    },

    restore: restoreVersion({ repo, catalog, audit, offered, revokedBy }),

    ...agentExchange(catalog, repo, audit, offered),
    recordFilesChange,
    ...embedOriginQueries(db),

    afterAgentDelete,

    async delete(userId: number, agentId: number): Promise<void> {
      const deleted = await repo.delete(userId, agentId, (trx) =>
        audit.record({ userId, action: 'agent.delete', objectType: 'agent', objectId: agentId }, trx),
      );
      if (!deleted) throw agentNotFound();
      for (const hook of afterAgentDelete) await hook();
    },
  };
}

export type AgentsService = ReturnType<typeof createAgentsService>;
