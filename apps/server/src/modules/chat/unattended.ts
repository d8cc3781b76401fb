import { laterThan, requireAgent, threadName, type ChatContext } from './context.ts';
import type { StoredMessage } from './runtime/messages.ts';
import { streamRun } from './runs.ts';

export interface UnattendedInput {
  userId: number;
  agentId: number;
  text: string;
  threadName?: string;
  signal?: AbortSignal;
}

/**
 * Runs the agent without a person present (a stored trigger event): its own thread (origin
 * 'trigger'), the same limits, and write/send tools refused unless the owner allowed unattended
 * writes for the agent. Resolves when the run has ended.
 */
export async function runUnattended(
  ctx: ChatContext,
  input: UnattendedInput,
): Promise<{ threadId: string; status: StoredMessage['status'] }> {
  const { userId, agentId } = input;
  const agent = await requireAgent(ctx, userId, agentId);
  const threadId = crypto.randomUUID();
  const userMessage: StoredMessage = {
    id: crypto.randomUUID(),
    role: 'user',
    parts: [{ type: 'text', text: input.text }],
    status: 'complete',
    createdAt: new Date().toISOString(),
  };
  const assistant: StoredMessage = {
    id: crypto.randomUUID(),
    role: 'assistant',
    parts: [],
    status: 'streaming',
    createdAt: laterThan(userMessage.createdAt),
  };
  const name = threadName(input.threadName ?? input.text, 'Triggered run');
  await ctx.repo.insertTurn(threadId, { userId, agentId, name, origin: 'trigger' }, [userMessage, assistant]);
  const stream = await streamRun(ctx, {
    userId,
    agent,
    threadId,
    history: [userMessage],
    message: assistant,
    signal: input.signal ?? new AbortController().signal,
    mode: 'unattended',
  });
  // Drained: the run writes its results to the thread.
  for await (const chunk of stream) void chunk;
  const stored = await ctx.repo.listMessages(userId, threadId);
  return { threadId, status: stored.at(-1)?.status ?? 'error' };
}
