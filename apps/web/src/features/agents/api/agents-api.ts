/**
 * The agents API (spec section 7) as this feature uses it: the generated SDK calls and their
 * generated query options, under the names the screens use. Query keys are never retyped.
 */
import {
  getAgentOptions as generatedGetAgentOptions,
  listAgentsOptions as generatedListAgentsOptions,
} from '../../../client/@tanstack/react-query.gen';
import * as sdk from '../../../client/sdk.gen';
import type { CreateAgentData, ListAgentsResponse } from '../../../client/types.gen';

export type Agent = ListAgentsResponse[number];
export type AgentTool = Agent['tools'][number];
export type AgentWrite = Omit<CreateAgentData['body'], 'guidelines' | 'tool_ids'> & {
  guidelines: string | null;
  tool_ids: number[];
};

export const createAgent = (body: AgentWrite) => sdk.createAgent({ body });
export const updateAgent = (agentId: number, body: AgentWrite) =>
  sdk.updateAgent({ path: { agent_id: agentId }, body });
export const deleteAgent = (agentId: number) => sdk.deleteAgent({ path: { agent_id: agentId } });

/** Invalidates every agent query (the list and each agent) after a write. */
export const isAgentQuery = (query: { queryKey: readonly unknown[] }) => {
  const id = (query.queryKey[0] as { _id?: string } | undefined)?._id;
  return id === 'listAgents' || id === 'getAgent';
};

export const listAgentsOptions = () => generatedListAgentsOptions();
export const getAgentOptions = (agentId: number) => generatedGetAgentOptions({ path: { agent_id: agentId } });
