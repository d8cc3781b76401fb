import type { ApiWrites } from '@cadre/contract';

/** What the agents module tells other modules about an agent (AgentsService.profile and .summaries). */

/** What a conversation with an agent needs to know about it (the chat's system prompt and rules). */
export interface AgentProfile {
  id: number;
  name: string;
  description: string;
  guidelines: string | null;
  /** An emoji or `avatar:<style>`, and a palette name: how the agent looks in the chat header. */
  icon: string | null;
  color: string | null;
  /** The owner's chat starters; empty when none were written. */
  starters: string[];
  /** The owner let write and send tools run in unattended (trigger) runs. */
  allowUnattendedWrites: boolean;
  /** What a write or send call asked through the API or MCP does: wait for approval, or refused. */
  apiWrites: ApiWrites;
  /** The offered model the agent runs on (LLM_MODELS id); null: the default. */
  modelId: string | null;
  /** 0-2; null leaves the provider's default. */
  temperature: number | null;
}

/** An agent as a list outside the agents module shows it. */
export interface AgentSummary {
  id: number;
  name: string;
  description: string;
  createdAt: string;
}
