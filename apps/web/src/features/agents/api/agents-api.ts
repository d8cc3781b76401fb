/**
 * The agents API (spec section 7) as this feature uses it: one declaration per operation, with its
 * path, types and query options, on the generated client (base URL, bearer token, errors).
 */
import { queryOptions } from '@tanstack/react-query';
import { client } from '../../../client/client.gen';

export interface AgentTool {
  id: number;
  display_name: string;
  name: string;
  description: string;
  logo: string;
  app_name: string;
}

export interface Agent {
  id: number;
  name: string;
  description: string;
  guidelines?: string | null;
  tools: AgentTool[];
}

export interface AgentWrite {
  name: string;
  description: string;
  guidelines: string | null;
  tool_ids: number[];
}

const dataOnly = { responseStyle: 'data', throwOnError: true } as const;
const json = { 'Content-Type': 'application/json' };

export const listAgents = () =>
  client.get<{ 200: Agent[] }, unknown, true, 'data'>({ ...dataOnly, url: '/api/v1/agents/' });

export const getAgent = (agentId: number) =>
  client.get<{ 200: Agent }, unknown, true, 'data'>({
    ...dataOnly,
    url: '/api/v1/agents/{agent_id}/agent',
    path: { agent_id: agentId },
  });

export const createAgent = (body: AgentWrite) =>
  client.post<{ 201: Agent; 200: Agent }, unknown, true, 'data'>({
    ...dataOnly,
    url: '/api/v1/agents/',
    body,
    headers: json,
  });

export const updateAgent = (agentId: number, body: AgentWrite) =>
  client.patch<{ 200: Agent }, unknown, true, 'data'>({
    ...dataOnly,
    url: '/api/v1/agents/{agent_id}',
    path: { agent_id: agentId },
    body,
    headers: json,
  });

export const deleteAgent = (agentId: number) =>
  client.delete<{ 204: void; 200: unknown }, unknown, true, 'data'>({
    ...dataOnly,
    url: '/api/v1/agents/{agent_id}',
    path: { agent_id: agentId },
  });

export const agentKeys = {
  all: ['agents'] as const,
  list: () => [...agentKeys.all, 'listAgents'] as const,
  detail: (agentId: number) => [...agentKeys.all, 'getAgent', agentId] as const,
};

export const listAgentsOptions = () => queryOptions({ queryKey: agentKeys.list(), queryFn: listAgents });

export const getAgentOptions = (agentId: number) =>
  queryOptions({ queryKey: agentKeys.detail(agentId), queryFn: () => getAgent(agentId) });
