import type { ChatAppDeps } from '../chat/index.ts';
import type { AgentProfile, AgentSummary } from '../agents/index.ts';

/** What the agent API needs of the agents module (`app.ts` wires it in). */
export interface ApiAgents {
  /** The user's agent; undefined for another user's or a missing agent. */
  profile(userId: number, agentId: number): Promise<AgentProfile | undefined>;
  /** The user's agents, oldest first: what the OpenAI-compatible API lists as models. */
  summaries(userId: number): Promise<AgentSummary[]>;
}

/** The chat service's needs (its runs are chat runs), with the agents this API also lists. */
export interface AgentApiDeps extends ChatAppDeps {
  agents: ChatAppDeps['agents'] & ApiAgents;
  /** Whether any API key lists a web origin (the api-keys module): CORS preflights ask it. */
  anyKeyAllowsOrigin(origin: string): Promise<boolean>;
}

export type { AgentProfile };
