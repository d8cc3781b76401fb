import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { AuditLog, Lifecycle, Telemetry } from '../../kernel.ts';
import type { AgentProfile, AttachedTool } from '../agents/index.ts';
import type { KnowledgeHit } from '../knowledge/index.ts';
import type { RunUsage } from '../usage/index.ts';

/**
 * What the chat needs of the agents, knowledge and usage modules (`app.ts` wires them in); the
 * tools layer's part is in runtime/ports.ts. The records these carry are the owning modules' types.
 */

export type { AgentProfile, RunUsage };

/** The agents module as the chat sees it: the agent a conversation speaks for, and its tools. */
export interface AgentDirectory {
  /** The user's agent as the chat speaks for it; undefined for another user's or a missing agent. */
  profile(userId: number, agentId: number): Promise<AgentProfile | undefined>;
  /** Whether `agentId` is one of the user's agents (another user's agent is simply absent). */
  exists(userId: number, agentId: number): Promise<boolean>;
  /** The tools attached to the user's agent, in the agent's order (none for another user's agent). */
  listTools(userId: number, agentId: number): Promise<AttachedTool[]>;
  /**
   * "Always allow for this agent" from an approval card: the tool runs without asking from now
   * on (audited). Throws 404 when the agent is not the user's or the tool is not attached to it.
   */
  allowWithoutAsking(userId: number, agentId: number, actionId: number, approvalId: string): Promise<void>;
  /** The origins allowed to embed the user's agent's copilot; [] for another user's agent. */
  embedOrigins(userId: number, agentId: number): Promise<string[]>;
  /** Whether any agent lets pages of this (normalised) origin embed its copilot: CORS preflights. */
  anyAllowsEmbedOrigin(origin: string): Promise<boolean>;
}

/** The knowledge module as the chat sees it: an agent's files, searched by "Search knowledge". */
export interface KnowledgeBase {
  /** Whether the agent has files attached (a turn reads no more of them: its tool searches them). */
  hasFiles(userId: number, agentId: number): Promise<boolean>;
  /** The passages of the user's agent's files that best answer `query`, best first. */
  search(userId: number, agentId: number, query: string, limit?: number): Promise<KnowledgeHit[]>;
}

/** The usage module as the chat sees it: each run is recorded, and the monthly budget is checked. */
export interface UsageLedger {
  /** Stores the run's usage and cost in the caller's transaction (the run's last save). */
  record(usage: RunUsage, trx: Kysely<Database>): Promise<void>;
  /** Throws the 429 once the user's tokens this month reach the budget; nothing otherwise. */
  checkBudget(userId: number): Promise<void>;
}

/**
 * What every chat service takes from the app: the chat at `/chainlit`, the demos' chat, the agent
 * API and the trigger worker each make one from it (`chatDepsFrom`).
 */
export interface ChatAppDeps {
  config: Config;
  db: Db;
  audit: AuditLog;
  agents: AgentDirectory;
  knowledge: KnowledgeBase;
  usage: UsageLedger;
  lifecycle: Lifecycle;
  telemetry: Telemetry;
}
