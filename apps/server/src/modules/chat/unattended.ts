import { modelFor, requireAgent, streamingAnswer, threadName, type ChatContext } from './context.ts';
import type { StoredMessage } from './runtime/messages.ts';
import { streamRun } from './runs.ts';

export interface UnattendedInput {
  userId: number;
  agentId: number;
  text: string;
  threadName?: string;
  /**
   * The thread to run in: created on the first attempt (origin 'trigger'); a later attempt of the
   * same event (its first run was lost with its instance) continues in it instead of a new one.
   */
  threadId?: string;
  /** Prefix of the idempotency keys of this run's writes (the trigger event), so a retry does not repeat them. */
  idempotencyPrefix?: string;
  signal?: AbortSignal;
}

/**
 * Runs the agent without a person present (a stored trigger event): its own thread, the same
 * limits, and write/send tools refused unless the owner allowed unattended writes for the agent.
 * Resolves when the run has ended.
 */
export async function runUnattended(
  ctx: ChatContext,
  input: UnattendedInput,
): Promise<{ threadId: string; status: StoredMessage['status'] }> {
  const { userId, agentId } = input;
  const agent = await requireAgent(ctx, userId, agentId);
  // A queued event past the month's token budget fails without calling the model.
  await ctx.usage.checkBudget(userId);
  const threadId = input.threadId ?? crypto.randomUUID();
  const earlier = (await ctx.repo.findThread(userId, agentId, threadId, ''))
    ? await ctx.repo.listMessages(userId, threadId)
    : undefined;
  // A retry keeps what the lost attempt showed in the thread (its answer ended as interrupted) and answers again.
  const history: StoredMessage[] = earlier ?? [
    {
      id: crypto.randomUUID(),
      role: 'user',
      parts: [{ type: 'text', text: input.text }],
      status: 'complete',
      createdAt: new Date().toISOString(),
    },
  ];
  const assistant = streamingAnswer(history, modelFor(ctx, agent).selection.id);
  const newThread = earlier
    ? undefined
    : {
        userId,
        agentId,
        endUser: '',
        name: threadName(input.threadName ?? input.text, 'Triggered run'),
        origin: 'trigger',
      };
  const rows = earlier ? [assistant] : [...history, assistant];
  let claimId: string | undefined;
  const runId = crypto.randomUUID();
  await ctx.repo.insertTurn(threadId, newThread, rows, async (trx) => {
    claimId = await ctx.runs.claim({ runId, userId, threadId, messageId: assistant.id }, trx);
    if (!claimId) throw new Error("The trigger run's thread already has a run in progress");
  });
  const stream = await streamRun(ctx, {
    userId,
    agent,
    threadId,
    // A retry answers the event from the start: the model sees the event, not the lost attempt's
    // partial answer, so its writes line up with that attempt's keys (see ToolSetContext).
    history: history.filter((m) => m.role === 'user'),
    message: assistant,
    signal: input.signal ?? new AbortController().signal,
    mode: 'unattended',
    source: 'trigger',
    idempotencyPrefix: input.idempotencyPrefix,
    runId,
    claimId,
  });
  // Drained: the run writes its results to the thread.
  for await (const chunk of stream) void chunk;
  const stored = await ctx.repo.listMessages(userId, threadId);
  return { threadId, status: stored.at(-1)?.status ?? 'error' };
}
