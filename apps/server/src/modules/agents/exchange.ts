import {
  AGENT_EXPORT_FORMAT,
  AGENT_EXPORT_VERSION,
  type Agent,
  type AgentExportDocument,
  type AgentExportTool,
  type AgentImportResult,
  type agentExportSchema,
} from '@cadre/contract';
import type { z } from 'zod';
import type { AuditLog } from '../../kernel.ts';
import type { StagedFiles } from './ports.ts';
import { notFound } from '../../http/errors.ts';
import type { RecordAnswer } from '../../http/idempotency.ts';
import type { ToolCatalog } from '../tools/index.ts';
import type { createAgentsRepository } from './repository.ts';
import { toolKey } from './tool-keys.ts';
import { authorOf, type Saver } from './versions.ts';

/** The ids of the services the user has an active connection to (the services module answers). */
export type ConnectedServices = (userId: number) => Promise<Set<number>>;

/** A document as the import reads it (older format versions included). */
type ImportDocument = z.output<typeof agentExportSchema>;

/**
 * Export and import: an agent as a document another server or user can read. Tools travel by
 * provider, service key and tool slug, never by this server's ids, and no connection or secret.
 */
export function agentExchange(
  tools: ToolCatalog,
  repo: ReturnType<typeof createAgentsRepository>,
  audit: AuditLog,
  offered: (modelId: string | null) => boolean,
) {
  return {
    /** The services whose tools these are (those this server offers the user), by id. */
    async servicesOfTools(userId: number, wanted: AgentExportTool[]): Promise<Set<number>> {
      return new Set((await tools.findLiveActionsByKeys(userId, wanted)).map((row) => row.service_id));
    },

    async exportDocument(userId: number, agentId: number): Promise<AgentExportDocument> {
      const state = await repo.snapshot(userId, agentId);
      if (!state) throw notFound('Agent not found');
      return {
        format: AGENT_EXPORT_FORMAT,
        format_version: AGENT_EXPORT_VERSION,
        exported_at: new Date().toISOString(),
        agent: {
          name: state.name,
          description: state.description,
          guidelines: state.guidelines,
          icon: state.icon,
          color: state.color,
          starters: state.starters,
          model_id: state.model_id,
          temperature: state.temperature,
          tools: state.tools.map((t) => ({
            provider: t.provider,
            service_key: t.service_key,
            tool_name: t.name,
            service_name: t.app_name,
            display_name: t.display_name,
          })),
        },
      };
    },

    /**
     * Creates a new agent from a document in one transaction, with its knowledge files when it
     * came as a zip (`files`, checked and indexed already): nothing of it stays if any part fails.
     * Tools this server does not offer the user are left out and listed; tools whose service the
     * user has not connected are attached and listed, so the user knows what to connect.
     */
    async importDocument(
      user: Saver,
      document: ImportDocument,
      connected: ConnectedServices,
      {
        files,
        recordAnswer,
        template,
      }: {
        files?: StagedFiles;
        /** Stores the answer for an Idempotency-Key, in the import's transaction. */
        recordAnswer?: RecordAnswer<AgentImportResult>;
        /** The agent template the document is, when it is one (its version and audit say so). */
        template?: string;
      } = {},
    ): Promise<AgentImportResult> {
      const wanted = new Map<string, AgentExportTool>();
      for (const tool of document.agent.tools)
        if (!wanted.has(toolKey(tool))) wanted.set(toolKey(tool), tool);
      const found = new Map<string, Awaited<ReturnType<ToolCatalog['findLiveActionsByKeys']>>[number]>();
      for (const row of await tools.findLiveActionsByKeys(user.id, [...wanted.values()])) {
        if (!found.has(toolKey(row))) found.set(toolKey(row), row);
      }
      const attached = [...wanted.entries()].filter(([key]) => found.has(key));
      const notFound = [...wanted.entries()].filter(([key]) => !found.has(key)).map(([, tool]) => tool);
      const active = await connected(user.id);
      const { name, description, guidelines, icon, color, starters, temperature } = document.agent;
      // A model this server does not offer falls back to the default; the result names it.
      const modelNotOffered = offered(document.agent.model_id) ? null : document.agent.model_id;
      const resultFor = (agent: Agent): AgentImportResult => ({
        agent,
        tools_to_connect: attached
          .map(([key, tool]) => ({ ...tool, service_id: found.get(key)!.service_id }))
          .filter((tool) => !active.has(tool.service_id)),
        tools_not_found: notFound,
        model_not_offered: modelNotOffered,
        files: files?.files ?? [],
      });
      const agent = await repo
        .create(
          user.id,
          {
            name,
            description,
            guidelines,
            icon,
            color,
            starters,
            model_id: modelNotOffered ? null : document.agent.model_id,
            temperature,
          },
          attached.map(([key]) => ({ actionId: found.get(key)!.id, version: found.get(key)!.version })),
          { reason: template ? 'template' : 'import', savedBy: user.id, author: authorOf(user) },
          async (trx, id, version) => {
            await files?.attach(trx, user.id, id, version);
            await audit.record(
              {
                userId: user.id,
                action: template ? 'agent.template' : 'agent.import',
                objectType: 'agent',
                objectId: id,
                detail: {
                  format_version: document.format_version,
                  tools: attached.length,
                  tools_not_found: notFound.length,
                  model_not_offered: modelNotOffered !== null,
                  files: files?.files.length ?? 0,
                  ...(template && { template }),
                },
              },
              trx,
            );
          },
          recordAnswer && ((trx, created) => recordAnswer(trx, resultFor(created))),
        )
        .catch(async (error: unknown) => {
          // The files' objects staged in the bucket go with the failed transaction.
          await files?.discard();
          throw error;
        });
      return resultFor(agent);
    },
  };
}
