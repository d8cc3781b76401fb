/**
 * The agents API (spec section 7) as this feature uses it: the generated query and mutation options
 * and the generated query keys, never retyped.
 */
import { idempotencyHeaders } from '@cadre/contract';
import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../api/api-error';
import {
  createAgentMutation,
  deleteAgentMutation,
  getAgentOptions,
  getAgentQueryKey,
  importAgentMutation,
  listAgentsInfiniteQueryKey,
  listAgentsOptions,
  listAgentsQueryKey,
  listAgentVersionsOptions,
  listAgentVersionsQueryKey,
  listToolPermissionsOptions,
  listToolPermissionsQueryKey,
  restoreAgentVersionMutation,
  setToolPermissionMutation,
} from '../../../client/@tanstack/react-query.gen';
import * as sdk from '../../../client/sdk.gen';
import { saveFile } from '../../../lib/download';
import { LIST_PAGE_SIZE, pagedListOptions } from '../../../lib/paged-list';
import type {
  CreateAgentData,
  ImportAgentData,
  ImportAgentResponse,
  ListAgentsResponse,
  ListAgentVersionsResponse,
  ListToolPermissionsResponse,
} from '../../../client/types.gen';

export type Agent = ListAgentsResponse[number];
export type AgentTool = Agent['tools'][number];
export type AgentColor = NonNullable<Agent['color']>;
/** A tool on the form: one picked from a connected service has no connection state to show yet. */
export type DraftTool = Omit<AgentTool, 'service_id' | 'needs_reconnecting'> &
  Partial<Pick<AgentTool, 'service_id' | 'needs_reconnecting'>>;
export type AgentWrite = Omit<CreateAgentData['body'], 'guidelines' | 'tool_ids'> & {
  guidelines: string | null;
  tool_ids: number[];
};

/** A 4xx answer will not change on its own: no retry (a missing agent shows at once). */
const retryUnlessClientError = (failures: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 1;

export type AgentVersion = ListAgentVersionsResponse[number];
export type AgentSnapshot = AgentVersion['snapshot'];
export type AgentImportDocument = ImportAgentData['body'];
export type AgentImportResult = ImportAgentResponse;

export { createAgentMutation, deleteAgentMutation, importAgentMutation, listAgentsOptions };
export { restoreAgentVersionMutation, setToolPermissionMutation };

/** A write or send tool of the agent: "Ask every time" or "Allow without asking". */
export type ToolPermission = ListToolPermissionsResponse['data'][number];

/** The agent's write and send tools with whether each asks before it runs. */
export const toolPermissionsOptions = (agentId: number) => ({
  ...listToolPermissionsOptions({ path: { agent_id: agentId } }),
  retry: retryUnlessClientError,
});

export const toolPermissionsQueryKey = (agentId: number) =>
  listToolPermissionsQueryKey({ path: { agent_id: agentId } });

/**
 * The agent list a page at a time, for the Agents screen (the pickers that need every agent read
 * `listAgentsOptions`). `refreshAgents` refreshes it with the whole list's key.
 */
export const agentPagesOptions = () =>
  pagedListOptions<Agent, ReturnType<typeof listAgentsInfiniteQueryKey>>(
    listAgentsInfiniteQueryKey({ query: { limit: LIST_PAGE_SIZE } }),
    (options) => sdk.listAgents(options),
  );

/** The agent's saved versions, newest first. */
export const agentVersionsOptions = (agentId: number) => ({
  ...listAgentVersionsOptions({ path: { agent_id: agentId } }),
  retry: retryUnlessClientError,
});

const exportName = (agent: { name: string }) => agent.name.replace(/[^\w.-]+/g, '-').slice(0, 60) || 'agent';

/**
 * Downloads the agent's export: the JSON document, or, when the agent has knowledge files, the zip
 * holding the document and the files (an import of it brings the files along).
 */
export async function downloadAgentExport(agent: { id: number; name: string }) {
  const path = { agent_id: agent.id };
  const files = await sdk.listKnowledgeFiles({ path });
  if (files.length > 0) {
    const zip = await sdk.exportAgent({ path, query: { include: 'files' }, parseAs: 'blob' });
    saveFile(zip as unknown as Blob, `${exportName(agent)}.agent.zip`);
    return;
  }
  const data = await sdk.exportAgent({ path });
  saveFile(
    new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' }),
    `${exportName(agent)}.agent.json`,
  );
}

/** Imports the zip export (the document with its knowledge files) as it is, typed as a zip. */
export const importAgentArchive = (zip: Blob) =>
  sdk.importAgent({
    body: zip as unknown as AgentImportDocument,
    bodySerializer: null,
    headers: { 'content-type': 'application/zip', ...idempotencyHeaders() },
  });

/**
 * The form's Save: create without an id, update with one (spec section 4). A create carries a key
 * made for this Save, so a retry of its request cannot make a second agent.
 */
export const saveAgent = (body: AgentWrite, agentId?: number) =>
  agentId === undefined
    ? sdk.createAgent({ body, headers: idempotencyHeaders() })
    : sdk.updateAgent({ path: { agent_id: agentId }, body });

/** The Embed section's own save: only the allowed origins change. */
export const saveEmbedOrigins = (agentId: number, origins: string[]) =>
  sdk.updateAgent({ path: { agent_id: agentId }, body: { embed_origins: origins } });

/** One agent, for the edit form; the route's loader and the form read the same options. */
export const agentOptions = (agentId: number) => ({
  ...getAgentOptions({ path: { agent_id: agentId } }),
  retry: retryUnlessClientError,
});

/**
 * After a write, the list (and the written agent, when there is one) is fetched again, inactive
 * queries included, so the list the form returns to paints with the change.
 */
export function refreshAgents(queryClient: QueryClient, agentId?: number) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: listAgentsQueryKey(), refetchType: 'all' }),
    agentId === undefined
      ? undefined
      : queryClient.invalidateQueries({ queryKey: getAgentQueryKey({ path: { agent_id: agentId } }) }),
    agentId === undefined
      ? undefined
      : queryClient.invalidateQueries({
          queryKey: listAgentVersionsQueryKey({ path: { agent_id: agentId } }),
          refetchType: 'all',
        }),
    // A detached tool takes its "Allow without asking" with it.
    agentId === undefined
      ? undefined
      : queryClient.invalidateQueries({ queryKey: toolPermissionsQueryKey(agentId) }),
  ]);
}

/** A deleted agent's own query is dropped rather than fetched into a 404. */
export function forgetAgent(queryClient: QueryClient, agentId: number) {
  queryClient.removeQueries({ queryKey: getAgentQueryKey({ path: { agent_id: agentId } }) });
}
