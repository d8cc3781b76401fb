import type { UsageGroup, UsageReport } from '@cadre/contract';
import type { Config } from '../../config.ts';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { RunSource } from '../../kernel.ts';
import { HttpError } from '../../http/errors.ts';
import type { AgentNames } from './ports.ts';
import { createUsageRepository, type UsageCounts } from './repository.ts';

const DAY_MS = 86_400_000;

/** What one agent run used, as the chat records it in the run's last commit. */
export interface RunUsage {
  userId: number;
  agentId: number;
  threadId: string;
  runId: string;
  source: RunSource;
  /** The offered model's id (LLM_MODELS) that answered. */
  model: string;
  inputTokens: number;
  outputTokens: number;
  /** The counts are estimated: the offline model, or a provider that reported none. */
  estimated: boolean;
  toolCalls: number;
  /** How the run ended: complete, awaiting_approval, error or interrupted. */
  status: string;
  /** The run continues after an approval: the same turn, not a new one. */
  continued: boolean;
}

/** The ledger the chat uses: each run is recorded, and the monthly budget is checked before one. */
export interface UsageLedger {
  /** Stores the run's usage and cost in the caller's transaction (the run's last save). */
  record(usage: RunUsage, trx: Kysely<Database>): Promise<void>;
  /**
   * Throws a 429 naming the reset date (with `Retry-After`) once the user's tokens this month
   * reach USER_MONTHLY_TOKEN_BUDGET; nothing when the budget is off or not reached.
   */
  checkBudget(userId: number): Promise<void>;
}

/** The first instant of the UTC month of `now`, and of the month after. */
export function monthOf(now: Date): { start: Date; next: Date } {
  return {
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    next: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

/** What a run cost at the model's prices per million tokens; null when the model has none. */
export function costOf(
  prices: { input: number | null; output: number | null } | undefined,
  inputTokens: number,
  outputTokens: number,
): number | null {
  if (!prices || (prices.input === null && prices.output === null)) return null;
  return (inputTokens * (prices.input ?? 0) + outputTokens * (prices.output ?? 0)) / 1_000_000;
}

export interface UsageServiceOptions {
  config: Pick<Config, 'llm' | 'usage'>;
  /** The clock (tests move it across a month's end). */
  now?: () => Date;
}

/**
 * Usage and cost (the usage module): records each run in the run's own last commit, answers the
 * monthly budget check before a run starts, and sums usage per day, agent and model for the Usage
 * screen and its CSV.
 */
export function createUsageService(db: Db, options: UsageServiceOptions) {
  const repo = createUsageRepository(db);
  const now = options.now ?? (() => new Date());
  const budget = options.config.usage.monthlyTokenBudget;
  const prices = new Map(
    options.config.llm.models.map((m) => [
      m.id,
      { input: m.inputPricePerMillion, output: m.outputPricePerMillion },
    ]),
  );

  const budgetStatus = async (userId: number) => {
    const { start, next } = monthOf(now());
    return { used: await repo.tokensSince(userId, start.toISOString()), resetsAt: next };
  };

  const ledger: UsageLedger = {
    async record(usage, trx) {
      await repo.insert(
        {
          user_id: usage.userId,
          agent_id: usage.agentId,
          thread_id: usage.threadId,
          run_id: usage.runId,
          source: usage.source,
          model: usage.model,
          input_tokens: usage.inputTokens,
          output_tokens: usage.outputTokens,
          estimated: usage.estimated ? 1 : 0,
          cost: costOf(prices.get(usage.model), usage.inputTokens, usage.outputTokens),
          tool_calls: usage.toolCalls,
          status: usage.status,
          continued: usage.continued ? 1 : 0,
          created_at: now().toISOString(),
        },
        trx,
      );
    },

    async checkBudget(userId) {
      if (budget === 0) return;
      const { used, resetsAt } = await budgetStatus(userId);
      if (used < budget) return;
      const seconds = Math.max(1, Math.ceil((resetsAt.getTime() - now().getTime()) / 1000));
      throw new HttpError(
        'budget_exceeded',
        `You have used this month's token budget (${used.toLocaleString('en-US')} of ` +
          `${budget.toLocaleString('en-US')} tokens). It resets on ${resetsAt.toISOString().slice(0, 10)} (UTC).`,
        { 'retry-after': String(seconds) },
      );
    },
  };

  return {
    ledger,

    /**
     * The user's usage over the UTC days `from`..`to` (both included), summed per group; agents
     * are named as they are now (null once deleted).
     */
    async report(
      userId: number,
      agents: AgentNames,
      range: { from: string; to: string; groupBy: UsageGroup[] },
    ): Promise<UsageReport> {
      const since = `${range.from}T00:00:00.000Z`;
      const until = new Date(Date.parse(`${range.to}T00:00:00.000Z`) + DAY_MS).toISOString();
      const [groups, totals, status, summaries] = await Promise.all([
        repo.groups(userId, since, until, range.groupBy),
        repo.totals(userId, since, until),
        budgetStatus(userId),
        range.groupBy.includes('agent') ? agents.summaries(userId) : Promise.resolve([]),
      ]);
      const names = new Map(summaries.map((a) => [a.id, a.name]));
      return {
        from: range.from,
        to: range.to,
        group_by: range.groupBy,
        rows: groups.map((g) => ({
          day: g.day,
          agent_id: g.agent_id,
          agent_name: g.agent_id === null ? null : (names.get(g.agent_id) ?? null),
          model: g.model,
          ...countsOf(g),
        })),
        totals: countsOf(totals),
        budget: {
          monthly_tokens: budget === 0 ? null : budget,
          used_tokens: status.used,
          resets_at: status.resetsAt.toISOString(),
        },
      };
    },

    /** Every usage row of the user, for their export. */
    async exportRows(userId: number) {
      return (await repo.list(userId)).map((r) => ({
        ...r,
        estimated: r.estimated === 1,
        continued: r.continued === 1,
      }));
    },

    /** Each of these users' tokens and cost this UTC month (the admin console's People list). */
    async monthTotals(userIds: number[]): Promise<Map<number, { tokens: number; cost: number | null }>> {
      const { start, next } = monthOf(now());
      const rows = await repo.totalsPerUser(userIds, start.toISOString(), next.toISOString());
      return new Map(
        rows.map((r) => [
          r.user_id,
          {
            tokens: Number(r.tokens),
            cost: r.cost === null ? null : Math.round(Number(r.cost) * 1e12) / 1e12,
          },
        ]),
      );
    },

    today: () => now().toISOString().slice(0, 10),
  };
}

export type UsageService = ReturnType<typeof createUsageService>;

const countsOf = (c: UsageCounts) => ({
  turns: Number(c.turns),
  input_tokens: Number(c.input_tokens),
  output_tokens: Number(c.output_tokens),
  total_tokens: Number(c.input_tokens) + Number(c.output_tokens),
  estimated: Number(c.estimated) > 0,
  // Sums of floating-point costs, rounded below what any price per million can express.
  cost: c.cost === null ? null : Math.round(c.cost * 1e12) / 1e12,
  tool_calls: Number(c.tool_calls),
  errors: Number(c.errors),
});
