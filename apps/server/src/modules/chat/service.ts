import { createUIMessageStream, type UIMessageChunk } from 'ai';
import type { Db } from '../../db/database.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { ChatAudit } from './audit.ts';
import type { HostFunctionBridge } from './host-functions.ts';
import type { ModelSelection } from './llm/select-model.ts';
import { createChatRepository, type AgentRow, type ChatRepository } from './repository.ts';
import { argsHash, canonicalJson, type StoredMessage, type ToolPart } from './runtime/messages.ts';
import type { ToolExecutor } from './runtime/ports.ts';
import { runAgent, type RunLimits } from './runtime/run.ts';

export const APPROVAL_TTL_MS = 15 * 60 * 1000;

export interface ChatServiceDeps {
  db: Db;
  executor: ToolExecutor;
  selection: ModelSelection;
  limits: Omit<RunLimits, 'approvalTtlMs'> & { approvalTtlMs?: number };
  audit: ChatAudit;
  /** The copilot's host-page function bridge (shared with the `/fn-results` route). */
  hostFunctions?: HostFunctionBridge;
}

/** How the principal came in: the frame's cookie session or the copilot widget's token. */
export type ChatVia = 'cookie' | 'copilot';

interface ActiveRun {
  userId: number;
  threadId: string;
  controller: AbortController;
}

const nowIso = () => new Date().toISOString();

/** Creation times that sort after everything earlier in the same thread, even within one millisecond. */
function laterThan(previous: string | undefined): string {
  const now = new Date();
  if (previous && now.toISOString() <= previous) return new Date(Date.parse(previous) + 1).toISOString();
  return now.toISOString();
}

/** A thread's name from its first message: one line, at most 60 characters. */
function threadName(text: string, fallback: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 60) || fallback;
}

/**
 * The chat service: turns, threads, approvals and stop. Routes call it with the authenticated
 * principal (user and agent); every method checks ownership before touching anything.
 */
export function createChatService(deps: ChatServiceDeps) {
  const repo: ChatRepository = createChatRepository(deps.db);
  const audit = deps.audit;
  const limits: RunLimits = { approvalTtlMs: APPROVAL_TTL_MS, ...deps.limits };
  /** Runs in this process, for Stop. A disconnect aborts through the request's own signal. */
  const active = new Map<string, ActiveRun>();

  async function requireAgent(userId: number, agentId: number): Promise<AgentRow> {
    const agent = await repo.findOwnedAgent(userId, agentId);
    if (!agent) throw notFound('Agent not found');
    return agent;
  }

  async function requireThread(userId: number, agentId: number, threadId: string) {
    const thread = await repo.findThread(userId, agentId, threadId);
    if (!thread) throw notFound('Thread not found');
    return thread;
  }

  /** Runs the agent for `message`, streaming UI chunks; registers the run for Stop. */
  function streamRun(args: {
    userId: number;
    agent: AgentRow;
    threadId: string;
    history: StoredMessage[];
    message: StoredMessage;
    signal: AbortSignal;
    prelude?: UIMessageChunk[];
    runId?: string;
    mode?: 'interactive' | 'unattended';
    via?: ChatVia;
  }): ReadableStream<UIMessageChunk> {
    const runId = args.runId ?? crypto.randomUUID();
    const controller = new AbortController();
    const onAbort = () => controller.abort(args.signal.reason);
    if (args.signal.aborted) controller.abort(args.signal.reason);
    args.signal.addEventListener('abort', onAbort, { once: true });
    active.set(runId, { userId: args.userId, threadId: args.threadId, controller });
    return createUIMessageStream({
      execute: async ({ writer }) => {
        writer.write({
          type: 'start',
          messageId: args.message.id,
          messageMetadata: { threadId: args.threadId, runId, offline: deps.selection.isOffline },
        });
        for (const chunk of args.prelude ?? []) writer.write(chunk);
        try {
          const outcome = await runAgent({
            repo,
            executor: deps.executor,
            selection: deps.selection,
            limits,
            audit,
            userId: args.userId,
            agent: args.agent,
            threadId: args.threadId,
            runId,
            history: args.history,
            message: args.message,
            signal: controller.signal,
            write: (chunk) => writer.write(chunk),
            mode: args.mode,
            hostFunctions: args.via === 'copilot' ? deps.hostFunctions : undefined,
            // Recorded in the commit of the run's last save.
            finalize: (trx, outcome) =>
              audit(
                {
                  userId: args.userId,
                  action: 'chat.run.finished',
                  objectType: 'thread',
                  objectId: args.threadId,
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
          active.delete(runId);
          args.signal.removeEventListener('abort', onAbort);
        }
      },
      onError: () => 'The chat service failed while answering.',
    });
  }

  return {
    repo,
    selection: deps.selection,

    async sessionInfo(userId: number, agentId: number) {
      const agent = await requireAgent(userId, agentId);
      const tools = await deps.executor.listAgentTools(userId, agentId);
      return { agent, tools };
    },

    async listThreads(userId: number, agentId: number) {
      await requireAgent(userId, agentId);
      return repo.listThreads(userId, agentId);
    },

    async createThread(userId: number, agentId: number, name?: string) {
      await requireAgent(userId, agentId);
      const thread = await repo.createThread({
        id: crypto.randomUUID(),
        userId,
        agentId,
        name: name?.trim() || 'New chat',
      });
      await audit({ userId, action: 'chat.thread.created', objectType: 'thread', objectId: thread.id });
      return thread;
    },

    async renameThread(userId: number, agentId: number, threadId: string, name: string) {
      if (!(await repo.renameThread(userId, agentId, threadId, name.trim())))
        throw notFound('Thread not found');
      return requireThread(userId, agentId, threadId);
    },

    async deleteThread(userId: number, agentId: number, threadId: string) {
      for (const run of active.values()) {
        if (run.userId === userId && run.threadId === threadId)
          run.controller.abort(new Error('thread deleted'));
      }
      if (!(await repo.deleteThread(userId, agentId, threadId))) throw notFound('Thread not found');
      await audit({ userId, action: 'chat.thread.deleted', objectType: 'thread', objectId: threadId });
    },

    async threadMessages(userId: number, agentId: number, threadId: string) {
      const thread = await requireThread(userId, agentId, threadId);
      const [messages, approvals] = await Promise.all([
        repo.listMessages(userId, threadId),
        repo.listApprovals(userId, threadId),
      ]);
      return { thread, messages, approvals };
    },

    /**
     * Starts a turn: stores the user's message (creating the thread on first use), then streams the
     * run. Pending approvals of the thread lapse: the conversation moved on without them.
     */
    async startTurn(input: {
      userId: number;
      agentId: number;
      threadId?: string;
      text?: string;
      regenerate?: boolean;
      /**
       * Edit-and-resend (useChat `sendMessage({text, messageId})`): the id of the thread's LAST user
       * message, which is replaced by `text`; the answers after it are dropped.
       */
      editMessageId?: string;
      /** The id the client gave the new user message, kept when it is free so a later edit finds it. */
      clientMessageId?: string;
      via?: ChatVia;
      /** Counts the turn against the user's limit in the same commit as its rows (429 rolls back). */
      rateLimit?: (trx: Pick<Db, 'kysely'>) => Promise<void>;
      signal: AbortSignal;
    }): Promise<{ threadId: string; stream: ReadableStream<UIMessageChunk> }> {
      const { userId, agentId } = input;
      const agent = await requireAgent(userId, agentId);
      const threadId = input.threadId ?? crypto.randomUUID();
      const existing = await repo.findThread(userId, agentId, threadId);
      // A new thread is stored with the turn's first messages, in one transaction.
      let newThread: { userId: number; agentId: number; name: string } | undefined;
      if (!existing) {
        if (input.threadId && (await repo.threadIdExists(threadId))) throw notFound('Thread not found');
        if (input.regenerate || input.editMessageId !== undefined) throw notFound('Thread not found');
        newThread = { userId, agentId, name: threadName(input.text ?? '', 'New chat') };
      }
      for (const run of active.values()) {
        if (run.threadId === threadId && run.userId === userId) {
          throw new HttpError(409, 'A run is already in progress in this thread; stop it first');
        }
      }
      // The rate limit counts in the commit that stores the turn, unless the turn changes stored
      // rows first (edit, regenerate, lapsing approvals): then it counts before anything changes.
      const plainAppend = !input.regenerate && input.editMessageId === undefined;
      const lapsed = existing ? await repo.listPendingApprovals(userId, threadId) : [];
      let rateLimitInTurn = input.rateLimit;
      if (existing && input.rateLimit && !(plainAppend && lapsed.length === 0)) {
        await input.rateLimit(deps.db);
        rateLimitInTurn = undefined;
      }
      let history = existing ? await repo.listMessages(userId, threadId) : [];
      const rows: StoredMessage[] = [];
      if (lapsed.length > 0) {
        await repo.expirePendingApprovals(userId, threadId);
        for (const message of history) {
          let changed = false;
          for (const part of message.parts) {
            if (
              part.type === 'dynamic-tool' &&
              lapsed.includes(part.toolCallId) &&
              part.state === 'approval-requested'
            ) {
              part.state = 'output-denied';
              part.approval = {
                id: part.approval?.id ?? '',
                approved: false,
                reason: 'Not approved before the conversation continued.',
              };
              changed = true;
            }
          }
          if (changed)
            await repo.updateMessage(userId, threadId, {
              id: message.id,
              parts: message.parts,
              status: message.status === 'awaiting_approval' ? 'complete' : message.status,
            });
        }
      }
      if (input.regenerate) {
        const lastUser = history.findLastIndex((m) => m.role === 'user');
        if (lastUser < 0) throw new HttpError(409, 'Nothing to regenerate');
        const dropped = history.slice(lastUser + 1).map((m) => m.id);
        await repo.deleteMessages(userId, threadId, dropped);
        history = history.slice(0, lastUser + 1);
      } else if (input.editMessageId !== undefined) {
        const text = (input.text ?? '').trim();
        if (!text) throw new HttpError(422, 'The message is empty');
        const lastUser = history.findLastIndex((m) => m.role === 'user');
        const edited = history[lastUser];
        if (!edited || edited.id !== input.editMessageId) {
          throw new HttpError(409, 'Only the last message you sent can be edited');
        }
        edited.parts = [{ type: 'text', text }];
        await repo.updateMessage(userId, threadId, {
          id: edited.id,
          parts: edited.parts,
          status: 'complete',
        });
        await repo.deleteMessages(
          userId,
          threadId,
          history.slice(lastUser + 1).map((m) => m.id),
        );
        history = history.slice(0, lastUser + 1);
        await audit({
          userId,
          action: 'chat.message.edited',
          objectType: 'thread',
          objectId: threadId,
          detail: { messageId: edited.id },
        });
      } else {
        const text = (input.text ?? '').trim();
        if (!text) throw new HttpError(422, 'The message is empty');
        const wanted = input.clientMessageId;
        const userMessage: StoredMessage = {
          id: wanted && !(await repo.messageIdExists(wanted)) ? wanted : crypto.randomUUID(),
          role: 'user',
          parts: [{ type: 'text', text }],
          status: 'complete',
          createdAt: laterThan(history.at(-1)?.createdAt),
        };
        rows.push(userMessage);
        history = [...history, userMessage];
      }
      const assistant: StoredMessage = {
        id: crypto.randomUUID(),
        role: 'assistant',
        parts: [],
        status: 'streaming',
        createdAt: laterThan(history.at(-1)?.createdAt),
      };
      rows.push(assistant);
      try {
        // One commit before the first token: the rate limit, the new thread and its audit event,
        // and the turn's messages.
        await repo.insertTurn(threadId, newThread, rows, async (trx) => {
          await rateLimitInTurn?.({ kysely: trx });
          if (newThread) {
            await audit(
              { userId, action: 'chat.thread.created', objectType: 'thread', objectId: threadId },
              trx,
            );
          }
        });
      } catch (error) {
        if (error instanceof HttpError) throw error;
        // Two first turns raced for the same new thread id: the later one is refused.
        if (newThread && (await repo.threadIdExists(threadId))) {
          throw new HttpError(409, 'A run is already in progress in this thread; stop it first');
        }
        throw error;
      }
      const stream = streamRun({
        userId,
        agent,
        threadId,
        history,
        message: assistant,
        signal: input.signal,
        via: input.via,
      });
      return { threadId, stream };
    },

    /**
     * Runs the agent without a person present (a stored trigger event): its own thread (origin
     * 'trigger'), the same limits, and write/send tools refused unless the owner allowed
     * unattended writes for the agent. Resolves when the run has ended.
     */
    async runUnattended(input: {
      userId: number;
      agentId: number;
      text: string;
      threadName?: string;
      signal?: AbortSignal;
    }) {
      const { userId, agentId } = input;
      const agent = await requireAgent(userId, agentId);
      const threadId = crypto.randomUUID();
      const userMessage: StoredMessage = {
        id: crypto.randomUUID(),
        role: 'user',
        parts: [{ type: 'text', text: input.text }],
        status: 'complete',
        createdAt: nowIso(),
      };
      const assistant: StoredMessage = {
        id: crypto.randomUUID(),
        role: 'assistant',
        parts: [],
        status: 'streaming',
        createdAt: laterThan(userMessage.createdAt),
      };
      const name = threadName(input.threadName ?? input.text, 'Triggered run');
      await repo.insertTurn(threadId, { userId, agentId, name, origin: 'trigger' }, [userMessage, assistant]);
      const stream = streamRun({
        userId,
        agent,
        threadId,
        history: [userMessage],
        message: assistant,
        signal: input.signal ?? new AbortController().signal,
        mode: 'unattended',
      });
      const reader = stream.getReader();
      while (!(await reader.read()).done) {
        // Drained: the run writes its results to the thread.
      }
      const stored = await repo.listMessages(userId, threadId);
      return { threadId, status: stored.at(-1)?.status ?? 'error' };
    },

    /** Stops this user's runs in the thread. */
    async stop(userId: number, agentId: number, threadId: string): Promise<boolean> {
      await requireThread(userId, agentId, threadId);
      let stopped = false;
      for (const run of active.values()) {
        if (run.userId === userId && run.threadId === threadId) {
          run.controller.abort(new Error('stopped by the user'));
          stopped = true;
        }
      }
      return stopped;
    },

    /**
     * Approves or denies a stored pending call. Only the stored call runs, once, for its owner:
     * the decision is an atomic `pending -> approved|denied` UPDATE, then `approved -> executed`.
     * The run then continues with the result (or the denial) once no other approval of the same
     * run is pending.
     */
    async decide(input: {
      userId: number;
      agentId: number;
      approvalId: string;
      decision: 'approve' | 'deny';
      toolCallId?: string;
      args?: unknown;
      reason?: string;
      via?: ChatVia;
      signal: AbortSignal;
    }): Promise<{ threadId: string; stream: ReadableStream<UIMessageChunk> }> {
      const { userId, agentId, approvalId } = input;
      const approval = await repo.findApproval(userId, approvalId);
      if (!approval) throw notFound('Approval not found');
      const thread = await repo.findThread(userId, agentId, approval.thread_id);
      if (!thread) throw notFound('Approval not found');
      if (input.toolCallId !== undefined && input.toolCallId !== approval.tool_call_id) {
        throw new HttpError(409, 'The approval does not match this tool call');
      }
      if (input.args !== undefined && argsHash(input.args) !== approval.args_hash) {
        throw new HttpError(409, 'The arguments differ from the ones the agent asked to use');
      }
      if (approval.status !== 'pending')
        throw new HttpError(409, `This approval was already ${approval.status}`);
      if (approval.expires_at <= nowIso()) {
        await repo.transitionApproval(userId, approvalId, 'pending', 'expired').catch(() => false);
        throw new HttpError(410, 'This approval has expired; ask the agent again');
      }
      const storedArgs = JSON.parse(approval.args) as Record<string, unknown>;
      if (argsHash(storedArgs) !== approval.args_hash || canonicalJson(storedArgs) !== approval.args) {
        throw new HttpError(409, 'The stored call is inconsistent and cannot run');
      }
      const agent = await requireAgent(userId, agentId);
      const messages = await repo.listMessages(userId, thread.id);
      const index = messages.findIndex((m) =>
        m.parts.some((p) => p.type === 'dynamic-tool' && p.toolCallId === approval.tool_call_id),
      );
      if (index < 0) throw notFound('Approval not found');
      const message = messages[index]!;
      const part = message.parts.find(
        (p): p is ToolPart => p.type === 'dynamic-tool' && p.toolCallId === approval.tool_call_id,
      )!;
      const prelude: UIMessageChunk[] = [];

      if (input.decision === 'deny') {
        if (!(await repo.transitionApproval(userId, approvalId, 'pending', 'denied'))) {
          throw new HttpError(409, 'This approval was already decided');
        }
        part.state = 'output-denied';
        part.approval = {
          id: approvalId,
          approved: false,
          reason: input.reason?.trim() || 'The user denied this action.',
        };
        prelude.push({ type: 'tool-output-denied', toolCallId: part.toolCallId });
        await audit({
          userId,
          action: 'chat.approval.denied',
          objectType: 'approval',
          objectId: approvalId,
          detail: { threadId: thread.id, actionId: approval.action_id },
        });
      } else {
        // The tool must still be attached to this agent (K4), checked before anything runs.
        const tools = await deps.executor.listAgentTools(userId, agentId);
        if (!tools.some((t) => t.actionId === approval.action_id)) {
          throw new HttpError(409, 'This tool is no longer attached to the agent');
        }
        if (!(await repo.transitionApproval(userId, approvalId, 'pending', 'approved'))) {
          throw new HttpError(409, 'This approval was already decided');
        }
        await audit({
          userId,
          action: 'chat.approval.approved',
          objectType: 'approval',
          objectId: approvalId,
          detail: { threadId: thread.id, actionId: approval.action_id, argsHash: approval.args_hash },
        });
        const started = performance.now();
        let result: Awaited<ReturnType<ToolExecutor['execute']>>;
        try {
          result = await deps.executor.execute(userId, approval.action_id, storedArgs, input.signal);
        } catch {
          result = { ok: false, error: 'The tool failed.', code: 'failed' };
        }
        await repo.transitionApproval(userId, approvalId, 'approved', 'executed');
        part.toolMetadata.durationMs = Math.round(performance.now() - started);
        part.approval = { id: approvalId, approved: true };
        if (result.ok) {
          part.state = 'output-available';
          part.output = result.data ?? null;
          prelude.push({
            type: 'tool-output-available',
            toolCallId: part.toolCallId,
            output: part.output,
            dynamic: true,
          });
        } else {
          part.state = 'output-error';
          part.errorText = result.error;
          prelude.push({
            type: 'tool-output-error',
            toolCallId: part.toolCallId,
            errorText: result.error,
            dynamic: true,
          });
        }
        await audit({
          userId,
          action: result.ok ? 'chat.tool.executed' : 'chat.tool.failed',
          objectType: 'action',
          objectId: String(approval.action_id),
          detail: { threadId: thread.id, approvalId, toolCallId: approval.tool_call_id },
        });
      }

      const stillPending = message.parts.some(
        (p) => p.type === 'dynamic-tool' && p.state === 'approval-requested',
      );
      await repo.updateMessage(userId, thread.id, {
        id: message.id,
        parts: message.parts,
        status: stillPending ? 'awaiting_approval' : 'streaming',
      });
      if (stillPending) {
        const stream = createUIMessageStream({
          execute: ({ writer }) => {
            writer.write({ type: 'start', messageId: message.id, messageMetadata: { threadId: thread.id } });
            for (const chunk of prelude) writer.write(chunk);
            writer.write({ type: 'finish', messageMetadata: { status: 'awaiting_approval' } });
          },
        });
        return { threadId: thread.id, stream };
      }
      const stream = streamRun({
        userId,
        agent,
        threadId: thread.id,
        history: messages.slice(0, index),
        message: { ...message, status: 'streaming' },
        signal: input.signal,
        prelude,
        runId: approval.run_id,
        via: input.via,
      });
      return { threadId: thread.id, stream };
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
