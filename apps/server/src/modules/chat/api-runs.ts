import type { UIMessageChunk } from 'ai';
import { HttpError } from '../../http/errors.ts';
import type { AgentProfile } from '../../deps.ts';
import { laterThan, modelFor, streamingAnswer, threadName, type ChatContext } from './context.ts';
import type { StoredMessage } from './runtime/messages.ts';
import type { RunOutcome } from './runtime/run.ts';
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
}

export interface ApiRun {
  threadId: string;
  stream: ReadableStream<UIMessageChunk>;
  /** How the run ended, once the stream has been read to its end. */
  outcome: Promise<RunOutcome>;
}

/**
 * Runs the agent for a caller outside the chat (an API key or sign-in token on the OpenAI-compatible
 * API or the agent's MCP server): the caller's conversation becomes a new thread of the agent, run
 * like a chat turn (same limits, rate limit and run registry), so a write or send call becomes a
 * pending approval the owner can decide in Cadre's chat.
 */
export async function startApiRun(ctx: ChatContext, input: ApiRunInput): Promise<ApiRun> {
  limitConcurrency(ctx);
  const { userId, agent } = input;
  await ctx.usage.checkBudget(userId);
  const agentId = agent.id;
  const threadId = crypto.randomUUID();
  const history: StoredMessage[] = [];
  for (const m of input.messages) {
    history.push({
      id: crypto.randomUUID(),
      role: m.role,
      parts: [{ type: 'text', text: m.text }],
      status: 'complete',
      createdAt: laterThan(history.at(-1)?.createdAt),
    });
  }
  const question = input.messages.findLast((m) => m.role === 'user')?.text ?? '';
  const assistant = streamingAnswer(history, modelFor(ctx, agent).selection.id);
  const runId = crypto.randomUUID();
  let claimId: string | undefined;
  const newThread = {
    userId,
    agentId,
    endUser: '',
    name: threadName(question, 'API call'),
    origin: input.origin,
  };
  await ctx.repo.insertTurn(threadId, newThread, [...history, assistant], async (trx) => {
    await limitTurns(ctx, userId, { kysely: trx });
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
    claimId = await ctx.runs.claim({ runId, userId, threadId, messageId: assistant.id }, trx);
    if (!claimId) throw new HttpError(409, RUN_IN_PROGRESS);
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
    onEnd: (ended) => settle(ended ?? { status: 'error', pendingApprovals: [] }),
  });
  return { threadId, stream, outcome };
}
