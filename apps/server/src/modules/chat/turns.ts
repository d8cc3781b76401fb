import type { UIMessageChunk } from 'ai';
import type { Db } from '../../db/database.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { RecordAnswer } from '../../http/idempotency.ts';
import { hitRateLimit } from '../../security/rate-limit.ts';
import {
  modelFor,
  requireAgent,
  streamingAnswer,
  threadName,
  type ChatContext,
  type ChatVia,
} from './context.ts';
import { dropLastAnswer, editLastUserMessage, lapseApprovals, newUserMessage } from './history.ts';
import { historyWindow } from './history-window.ts';
import type { NewThread } from './repository.ts';
import type { StoredMessage } from './runtime/messages.ts';
import type { Visitor } from './runtime/run.ts';
import { RUN_IN_PROGRESS, streamRun } from './runs.ts';

export interface TurnInput {
  userId: number;
  agentId: number;
  /** The embedding site's visitor whose thread it is; '' for the owner's own. */
  endUser: string;
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
  /** The person's IANA time zone, when the client sent it. */
  timeZone?: string;
  /** A host site's visitor, in a copilot chat minted for them. */
  visitor?: Visitor;
  /** With an `Idempotency-Key`: stores the turn under the key in the turn's own commit. */
  record?: RecordAnswer<SentTurn>;
  signal: AbortSignal;
  /** A chat frame's turn: its answer goes on for a while after the connection closes, to be rejoined. */
  rejoinable?: boolean;
}

/** What an `Idempotency-Key` remembers of a turn: where its answer is. */
export interface SentTurn {
  threadId: string;
  messageId: string;
}

/**
 * The answer to a turn sent again under the same `Idempotency-Key` (a proxy's retry of a request
 * whose answer was lost): nothing is stored twice. While the first turn's answer is still being
 * written the thread is busy as for any second turn; after that the answer is in the thread.
 */
export async function alreadySent(ctx: ChatContext, sent: SentTurn): Promise<HttpError> {
  if ((await ctx.runs.runningIn(sent.threadId)) !== undefined)
    return new HttpError('run_in_progress', RUN_IN_PROGRESS);
  return new HttpError('conflict', 'This message was already sent; its answer is in the thread');
}

/** Chat turns cost model tokens: one user gets `turnsPerMinute`, then 429 with Retry-After. */
export async function limitTurns(ctx: ChatContext, userId: number, on: Pick<Db, 'kysely'> = ctx.db) {
  const limit = ctx.limits.turnsPerMinute;
  if (limit === undefined) return;
  const hit = await hitRateLimit(on, `chat-turn:${userId}`, { limit, windowSeconds: 60 });
  if (!hit.allowed) {
    throw new HttpError('rate_limited', 'Too many chat messages; wait a moment', {
      'retry-after': String(hit.retryAfterSeconds),
    });
  }
}

/** Seconds a turn refused for want of capacity is told to wait: turns last about that long. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

/**
 * Past `maxConcurrentTurns` running here, a new turn is refused at once with 429 rather than
 * admitted to make every running turn slower. Counted per instance, before any database work.
 * An instance shutting down refuses every new turn with 503 (another instance takes the retry).
 */
export function limitConcurrency(ctx: ChatContext) {
  ctx.runs.refuseWhileDraining();
  const max = ctx.limits.maxConcurrentTurns;
  if (max !== undefined && ctx.runs.localCount() >= max) {
    throw new HttpError(
      'rate_limited',
      'The server is answering as many chats as it can; try again in a moment',
      {
        'retry-after': String(BUSY_RETRY_AFTER_SECONDS),
      },
    );
  }
}

/**
 * Starts a turn: stores the user's message (creating the thread on first use), then streams the
 * run. The rate limit, a new thread and its audit event and the turn's messages commit together,
 * once, before the first token.
 */
export async function startTurn(
  ctx: ChatContext,
  input: TurnInput,
): Promise<{ threadId: string; stream: ReadableStream<UIMessageChunk> }> {
  limitConcurrency(ctx);
  const { userId, agentId, endUser } = input;
  const { repo } = ctx;
  const agent = await requireAgent(ctx, userId, agentId);
  // Past the month's token budget the turn is refused before anything is stored.
  await ctx.usage.checkBudget(userId);
  const threadId = input.threadId ?? crypto.randomUUID();
  // An id made here names no thread yet: only a client's id is looked up.
  const existing =
    input.threadId === undefined ? undefined : await repo.findThread(userId, agentId, threadId, endUser);
  let newThread: NewThread | undefined;
  if (!existing) {
    if (input.threadId && (await repo.threadIdExists(threadId))) throw notFound('Thread not found');
    if (input.regenerate || input.editMessageId !== undefined) throw notFound('Thread not found');
    newThread = { userId, agentId, endUser, name: threadName(input.text ?? '', 'New chat') };
  }
  // Checked before the history changes (lapse, regenerate, edit); the claim in the turn's commit
  // below is what holds the thread against a run starting meanwhile on another instance.
  if (existing && (await ctx.runs.runningIn(threadId)) !== undefined)
    throw new HttpError('run_in_progress', RUN_IN_PROGRESS);

  // The rate limit counts in the commit that stores the turn, unless the turn changes stored rows
  // first (edit, regenerate, lapsing approvals): then it counts before anything changes.
  const plainAppend = !input.regenerate && input.editMessageId === undefined;
  const lapsed = existing ? await ctx.approvals.listPending(userId, threadId) : [];
  const countFirst = existing !== undefined && !(plainAppend && lapsed.length === 0);
  if (countFirst) await limitTurns(ctx, userId);

  // Only the newest messages the model can be sent are read, but where approvals lapse (which
  // changes messages older than the newest turn: rare, one answer's pending calls).
  const budget = lapsed.length > 0 ? undefined : modelFor(ctx, agent).selection.contextBudget;
  let history = existing ? await historyWindow(repo, userId, threadId, budget) : [];
  const rows: StoredMessage[] = [];
  if (lapsed.length > 0) await lapseApprovals(ctx, userId, threadId, history, lapsed);
  if (input.regenerate) {
    history = await dropLastAnswer(ctx, userId, threadId, history);
  } else if (input.editMessageId !== undefined) {
    history = await editLastUserMessage(ctx, userId, threadId, history, {
      messageId: input.editMessageId,
      text: input.text ?? '',
    });
  } else {
    const userMessage = await newUserMessage(ctx, history, input.text ?? '', input.clientMessageId);
    rows.push(userMessage);
    history = [...history, userMessage];
  }
  const assistant = streamingAnswer(history, modelFor(ctx, agent).selection.id);
  rows.push(assistant);
  const runId = crypto.randomUUID();
  let claimId: string | undefined;
  try {
    await repo.insertTurn(threadId, newThread, rows, async (trx) => {
      if (!countFirst) await limitTurns(ctx, userId, { kysely: trx });
      if (newThread) {
        await ctx.audit.record(
          { userId, action: 'chat.thread.created', objectType: 'thread', objectId: threadId },
          trx,
        );
      }
      claimId = await ctx.runs.claim({ runId, userId, threadId, messageId: assistant.id }, trx);
      // Another instance started a run in this thread meanwhile: store nothing of this turn.
      if (!claimId) throw new HttpError('run_in_progress', RUN_IN_PROGRESS);
      await input.record?.(trx, { threadId, messageId: assistant.id });
    });
  } catch (error) {
    if (error instanceof HttpError) throw error;
    // Two first turns raced for the same new thread id: the later one is refused.
    if (newThread && (await repo.threadIdExists(threadId)))
      throw new HttpError('run_in_progress', RUN_IN_PROGRESS);
    throw error;
  }
  const turn = { userId, agent, threadId, history, message: assistant, signal: input.signal };
  const { via, timeZone, visitor, rejoinable } = input;
  const source = via === 'copilot' ? 'copilot' : 'chat';
  const stream = await streamRun(ctx, {
    ...turn,
    via,
    runId,
    claimId,
    timeZone,
    visitor,
    source,
    rejoinable,
  });
  return { threadId, stream };
}
