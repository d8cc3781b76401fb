import type { Db } from '../../db/database.ts';
import type { AuditLog, Telemetry } from '../../kernel.ts';
import type { AgentDirectory, AgentProfile, KnowledgeBase, UsageLedger } from './ports.ts';
import { notFound } from '../../http/errors.ts';
import { createApprovalRepository, type ApprovalRepository } from './approval-repository.ts';
import type { HostFunctionBridge } from './host-functions.ts';
import type { ModelCatalog } from './llm/model-catalog.ts';
import { createChatRepository, type ChatRepository, type ThreadRow } from './repository.ts';
import type { ToolExecutor } from './runtime/ports.ts';
import type { RunLimits } from './runtime/run.ts';
import type { RunRegistry } from './run-registry.ts';
import type { StoredMessage } from './runtime/messages.ts';

export const APPROVAL_TTL_MS = 15 * 60 * 1000;

/** How the principal came in: the frame's cookie session or the copilot widget's token. */
export type ChatVia = 'cookie' | 'copilot';

export interface ChatServiceDeps {
  db: Db;
  agents: AgentDirectory;
  audit: AuditLog;
  executor: ToolExecutor;
  /** The agents' knowledge files, searched by the tool an agent with files gets. */
  knowledge?: KnowledgeBase;
  /** The offered models: each run uses its agent's (or the default). */
  models: ModelCatalog;
  limits: Omit<RunLimits, 'approvalTtlMs'> & {
    approvalTtlMs?: number;
    /** Chat turns and approval decisions per user per minute; unlimited when absent. */
    turnsPerMinute?: number;
    /** Turns this instance runs at once; unlimited when absent. */
    maxConcurrentTurns?: number;
  };
  /** The copilot's host-page function bridge (shared with the `/fn-results` route). */
  hostFunctions?: HostFunctionBridge;
  /** Suggested prompts for an agent; when it gives none they are derived from the agent's tools. */
  suggestedPrompts?: (userId: number, agentId: number) => Promise<string[] | undefined>;
  /** Where runs hold their thread: Stop and the one-run-per-thread rule, on every instance. */
  runs: RunRegistry;
  /** Where each run's tokens and cost go, and the monthly budget a new run is checked against. */
  usage: UsageLedger;
  /** Spans and metrics of runs (and, through the model catalog, of model calls). */
  telemetry: Telemetry;
  /** The web app's Services page, where a disconnected service is connected again. */
  servicesUrl?: string;
}

/** What the parts of the chat service share. */
export interface ChatContext extends ChatServiceDeps {
  repo: ChatRepository;
  approvals: ApprovalRepository;
  limits: RunLimits & { turnsPerMinute?: number; maxConcurrentTurns?: number };
}

export function createChatContext(deps: ChatServiceDeps): ChatContext {
  return {
    ...deps,
    repo: createChatRepository(deps.db),
    approvals: createApprovalRepository(deps.db),
    limits: { ...deps.limits, approvalTtlMs: deps.limits.approvalTtlMs ?? APPROVAL_TTL_MS },
  };
}

export async function requireAgent(ctx: ChatContext, userId: number, agentId: number): Promise<AgentProfile> {
  const agent = await ctx.agents.profile(userId, agentId);
  if (!agent) throw notFound('Agent not found');
  return agent;
}

export async function requireThread(
  ctx: ChatContext,
  userId: number,
  agentId: number,
  threadId: string,
  /** The embedding site's visitor whose thread it must be; '' for the owner's own. */
  endUser: string,
): Promise<ThreadRow> {
  const thread = await ctx.repo.findThread(userId, agentId, threadId, endUser);
  if (!thread) throw notFound('Thread not found');
  return thread;
}

/** Creation times that sort after everything earlier in the same thread, even within one millisecond. */
export function laterThan(previous: string | undefined): string {
  const now = new Date();
  if (previous && now.toISOString() <= previous) return new Date(Date.parse(previous) + 1).toISOString();
  return now.toISOString();
}

/** The model the agent runs on now: its own, or the default when its own is no longer offered. */
export const modelFor = (ctx: Pick<ChatContext, 'models'>, agent: Pick<AgentProfile, 'modelId'>) =>
  ctx.models.forAgent(agent.modelId);

/** The empty assistant message a run streams into, after the newest message of `history`. */
export function streamingAnswer(history: readonly StoredMessage[], model: string): StoredMessage {
  return {
    id: crypto.randomUUID(),
    role: 'assistant',
    parts: [],
    status: 'streaming',
    createdAt: laterThan(history.at(-1)?.createdAt),
    model,
  };
}

/** A thread's name from its first message: one line, at most 60 characters. */
export function threadName(text: string, fallback: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 60) || fallback;
}
