import type { FastifyRequest } from 'fastify';
import type { AgentProfile, ApiAgents } from './ports.ts';
import { keyAllows as grantAllows } from '../../http/auth.ts';

/**
 * The caller's agent, if their credential reaches it: another user's agent, a missing one, or one
 * outside an API key's agent limit are all simply absent (the routes answer 404 alike).
 */
export async function reachableAgent(
  agents: Pick<ApiAgents, 'profile'>,
  request: FastifyRequest,
  agentId: number,
): Promise<AgentProfile | undefined> {
  if (!grantAllows(request.apiKey, agentId)) return undefined;
  return agents.profile(request.user.id, agentId);
}

/** Whether an API key's agent limit (if any) lets the caller use the agent. */
export const keyAllows = (request: FastifyRequest, agentId: number) => grantAllows(request.apiKey, agentId);
