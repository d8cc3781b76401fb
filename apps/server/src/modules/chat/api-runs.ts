import type { UIMessageChunk } from 'ai';
import { HttpError } from '../../http/errors.ts';
import type { AgentProfile } from './ports.ts';
import { laterThan, modelFor, streamingAnswer, threadName, type ChatContext } from './context.ts';
import { lapseApprovals } from './history.ts';
import type { StoredMessage } from './runtime/messages.ts';
import type { GenerationOptions, RunOutcome } from './runtime/run.ts';
import { RUN_IN_PROGRESS, streamRun } from './runs.ts';
import { limitConcurrency, limitTurns } from './turns.ts';

export interface ApiRunInput {
  userId: number;
  /** The caller's agent, as the route found it (the caller's own, within their key's limit). */
  agent: AgentProfile;
  /** The conversation the caller sends, oldest first; the last one is the user's question. */
  messages: { role: 'user' | 'assistant'; text: string }[];
  /** Where the run came from, kept on its thread (`api` for the OpenAI-compatible API, `mcp`). */
  origin: 'api' | 'mcp';
  /** The caller's connection: closing it stops the run. */
  signal: AbortSignal;
  /**
   * The conversation goes on in the thread of an earlier API or MCP run of this agent (whose answer
   * ended with an approval link): that thread, and the index in `messages` of the first message
   * that is new to it. When the thread is gone, the whole conversation starts a new one.
   */
  continues?: { threadId: string; from: number };
  /** The caller's `max_tokens`, `stop`, `response_format` and `logprobs`, for every model call of the run. */
  generation?: GenerationOptions;
}

export interface ApiRun {
  threadId: string;
  stream: ReadableStream<UIMessageChunk>;
  /** How the run ended, once the stream has been read to its end. */
  outcome: Promise<RunOutcome>;
  /**
   * The tools whose approval the continued thread still waits for: nothing ran and nothing was
   * stored, the caller is only told to decide first.
   */
  stillWaiting?: string[];
}

/** A thread of an earlier API or MCP run, with its stored history, or the approvals it waits for. */
async function continuedThread(ctx: ChatContext, input: ApiRunInput, threadId: string) {
  const { userId } = input;
  const thread = await ctx.repo.findThread(userId, input.agent.id, threadId, '');
  if (!thread || (thread.origin !== 'api' && thread.origin !== 'mcp')) return undefined;
  if ((await ctx.runs.runningIn(threadId)) !== undefined)
    throw new HttpError('run_in_progress', RUN_IN_PROGRESS);
  const history = await ctx.repo.listMessages(userId, threadId);
  const now = new Date().toISOString();
  const pending = (await ctx.approvals.list(userId, threadId)).filter((a) => a.status === 'pending');
  const waiting = new Set(pending.filter((a) => a.expires_at > now).map((a) => a.tool_call_id));
  if (waiting.size > 0) {
    const names = history
      .flatMap((m) => m.parts)
      .flatMap((p) => (p.type === 'dynamic-tool' && waiting.has(p.toolCallId) ? [p.toolName] : []));
    return { history, waiting: { ids: [...waiting], names: [...new Set(names)] } };
  }
  // Approvals left undecided past their expiry lapse, as a new chat message makes them.
  const lapsed = pending.map((a) => a.tool_call_id);
  if (lapsed.length > 0) await lapseApprovals(ctx, userId, threadId, history, lapsed);
  return { history, waiting: undefined };
}

/**
 * Runs the agent for a caller outside the chat (an API key or sign-in token on the OpenAI-compatible
 * API or the agent's MCP server): the caller's conversation becomes a new thread of the agent (or
 * goes on in the earlier run's thread it names), run like a chat turn (same limits, rate limit and
 * run registry), so a write or send call becomes a pending approval the owner can decide in Cadre's
 * chat, and the caller's next call continues from the decision.
 */
export async function startApiRun(ctx: ChatContext, input: ApiRunInput): Promise<ApiRun> {
  limitConcurrency(ctx);
  const { userId, agent } = input;
  await ctx.usage.checkBudget(userId);
  const agentId = agent.id;
  const continued = input.continues && (await continuedThread(ctx, input, input.continues.threadId));
  const threadId = continued ? input.continues!.threadId : crypto.randomUUID();
  if (continued?.waiting) {
    const { ids, names } = continued.waiting;
    return {
      threadId,
      stream: new ReadableStream({ start: (controller) => controller.close() }),
      outcome: Promise.resolve({ status: 'awaiting_approval', pendingApprovals: ids }),
      stillWaiting: names,
    };
  }
  const history: StoredMessage[] = continued ? continued.history : [];
  const asked: StoredMessage[] = [];
  for (const m of continued ? input.messages.slice(input.continues!.from) : input.messages) {
    asked.push({
      id: crypto.randomUUID(),
      role: m.role,
      parts: [{ type: 'text', text: m.text }],
      status: 'complete',
      createdAt: laterThan((asked.at(-1) ?? history.at(-1))?.createdAt),
    });
  }
  history.push(...asked);
  const question = input.messages.findLast((m) => m.role === 'user')?.text ?? '';
  const assistant = streamingAnswer(history, modelFor(ctx, agent).selection.id);
  const runId = crypto.randomUUID();
  let claimId: string | undefined;
  const newThread = continued
    ? undefined
    : { userId, agentId, endUser: '', name: threadName(question, 'API call'), origin: input.origin };
  await ctx.repo.insertTurn(threadId, newThread, [...asked, assistant], async (trx) => {
    await limitTurns(ctx, userId, { kysely: trx });
    if (newThread) {
      await ctx.audit.record(
        {
          userId,
          action: 'chat.thread.created',
          objectType: 'thread',
          objectId: threadId,
          detail: { origin: input.origin },
        },
        trx,
      );
    }
    claimId = await ctx.runs.claim({ runId, userId, threadId, messageId: assistant.id }, trx);
    if (!claimId) throw new HttpError('run_in_progress', RUN_IN_PROGRESS);
  });
  let settle: (outcome: RunOutcome) => void = () => {};
  const outcome = new Promise<RunOutcome>((resolve) => (settle = resolve));
  const turn = { userId, agent, threadId, history, message: assistant, signal: input.signal };
  const stream = await streamRun(ctx, {
    ...turn,
    runId,
    claimId,
    mode: 'api',
    source: input.origin,
    generation: input.generation,
    onEnd: (ended) => settle(ended ?? { status: 'error', pendingApprovals: [] }),
  });
  return { threadId, stream, outcome };
}
