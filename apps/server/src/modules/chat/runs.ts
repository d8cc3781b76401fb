import { createUIMessageStream, type UIMessageChunk } from 'ai';
import type { AgentProfile } from '../../deps.ts';
import type { ChatContext, ChatVia } from './context.ts';
import type { StoredMessage } from './runtime/messages.ts';
import { runAgent } from './runtime/run.ts';

/**
 * The runs in progress, for Stop and the one-run-per-thread rule. Today each process keeps its own
 * (a Stop must reach the instance that runs the turn); the interface is async so that a shared
 * table can take its place without changing the callers.
 */
export interface RunRegistry {
  /** Whether the user has a run in progress in the thread. */
  isRunning(userId: number, threadId: string): Promise<boolean>;
  /** Registers a run; `controller` aborts it. */
  add(run: { runId: string; userId: number; threadId: string; controller: AbortController }): Promise<void>;
  remove(runId: string): Promise<void>;
  /** Aborts the user's runs in the thread with `reason`; whether there was one. */
  stop(userId: number, threadId: string, reason: Error): Promise<boolean>;
}

export function createInProcessRuns(): RunRegistry {
  const active = new Map<string, { userId: number; threadId: string; controller: AbortController }>();
  const inThread = (userId: number, threadId: string) =>
    [...active.values()].filter((run) => run.userId === userId && run.threadId === threadId);
  return {
    isRunning: async (userId, threadId) => inThread(userId, threadId).length > 0,
    add: async ({ runId, ...run }) => void active.set(runId, run),
    remove: async (runId) => void active.delete(runId),
    async stop(userId, threadId, reason) {
      const runs = inThread(userId, threadId);
      for (const run of runs) run.controller.abort(reason);
      return runs.length > 0;
    },
  };
}

export interface StreamRunInput {
  userId: number;
  agent: AgentProfile;
  threadId: string;
  history: StoredMessage[];
  message: StoredMessage;
  /** The client's connection: closing it aborts the run. */
  signal: AbortSignal;
  /** Chunks sent before the run's own (an approval's outcome). */
  prelude?: UIMessageChunk[];
  /** Continues this run (after an approval) instead of starting a new one. */
  runId?: string;
  mode?: 'interactive' | 'unattended';
  via?: ChatVia;
}

/**
 * Starts a run of the agent for `message` and returns its UI message stream: a `start` chunk with
 * `{threadId, runId, offline}`, the run's chunks, and a `finish` chunk with its outcome. The run is
 * registered for Stop until it ends; its last save records `chat.run.finished` in the same commit.
 */
export async function streamRun(
  ctx: ChatContext,
  input: StreamRunInput,
): Promise<ReadableStream<UIMessageChunk>> {
  const runId = input.runId ?? crypto.randomUUID();
  const controller = new AbortController();
  const onAbort = () => controller.abort(input.signal.reason);
  if (input.signal.aborted) controller.abort(input.signal.reason);
  input.signal.addEventListener('abort', onAbort, { once: true });
  await ctx.runs.add({ runId, userId: input.userId, threadId: input.threadId, controller });
  return createUIMessageStream({
    execute: async ({ writer }) => {
      writer.write({
        type: 'start',
        messageId: input.message.id,
        messageMetadata: { threadId: input.threadId, runId, offline: ctx.selection.isOffline },
      });
      for (const chunk of input.prelude ?? []) writer.write(chunk);
      try {
        const outcome = await runAgent({
          store: { ...ctx.repo, insertApproval: ctx.approvals.insert },
          executor: ctx.executor,
          selection: ctx.selection,
          limits: ctx.limits,
          audit: ctx.audit,
          userId: input.userId,
          agent: input.agent,
          threadId: input.threadId,
          runId,
          history: input.history,
          message: input.message,
          signal: controller.signal,
          write: (chunk) => writer.write(chunk),
          mode: input.mode,
          hostFunctions: input.via === 'copilot' ? ctx.hostFunctions : undefined,
          finalize: (trx, outcome) =>
            ctx.audit.record(
              {
                userId: input.userId,
                action: 'chat.run.finished',
                objectType: 'thread',
                objectId: input.threadId,
                detail: { runId, status: outcome.status, errorCategory: outcome.errorCategory ?? null },
              },
              trx,
            ),
        });
        if (!controller.signal.aborted) {
          writer.write({
            type: 'finish',
            messageMetadata: {
              status: outcome.status,
              errorCategory: outcome.errorCategory,
              pendingApprovals: outcome.pendingApprovals,
            },
          });
        }
      } finally {
        await ctx.runs.remove(runId);
        input.signal.removeEventListener('abort', onAbort);
      }
    },
    onError: () => 'The chat service failed while answering.',
  });
}
