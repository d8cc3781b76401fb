/**
 * The agents API (spec section 7) as this feature uses it: the generated query and mutation options
 * and the generated query keys, never retyped.
 */
import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../api/api-error';
import {
  createAgentMutation,
  deleteAgentMutation,
  getAgentOptions,
  getAgentQueryKey,
  listAgentsOptions,
  listAgentsQueryKey,
} from '../../../client/@tanstack/react-query.gen';
import * as sdk from '../../../client/sdk.gen';
import type { CreateAgentData, ListAgentsResponse } from '../../../client/types.gen';

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

export { createAgentMutation, deleteAgentMutation, listAgentsOptions };

/** The form's Save: create without an id, update with one (spec section 4). */
export const saveAgent = (body: AgentWrite, agentId?: number) =>
  agentId === undefined ? sdk.createAgent({ body }) : sdk.updateAgent({ path: { agent_id: agentId }, body });

/** A 4xx answer will not change on its own: no retry (a missing agent shows at once). */
const retryUnlessClientError = (failures: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 1;

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
  ]);
}

/** A deleted agent's own query is dropped rather than fetched into a 404. */
export function forgetAgent(queryClient: QueryClient, agentId: number) {
  queryClient.removeQueries({ queryKey: getAgentQueryKey({ path: { agent_id: agentId } }) });
}
