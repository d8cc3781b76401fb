import { HttpError } from '../../http/errors.ts';
import { laterThan, type ChatContext } from './context.ts';
import type { StoredMessage } from './runtime/messages.ts';

/**
 * How a new turn changes the stored conversation before the model runs: pending approvals lapse,
 * a regenerate drops the last answer, an edit replaces the last user message, and a plain turn
 * appends the user's message. Each returns the history the run continues from.
 */

const LAPSED_REASON = 'Not approved before the conversation continued.';

/** The thread's pending approvals lapse: the conversation moved on without them. */
export async function lapseApprovals(
  ctx: ChatContext,
  userId: number,
  threadId: string,
  history: StoredMessage[],
  lapsed: string[],
): Promise<void> {
  await ctx.approvals.expirePending(userId, threadId);
  for (const message of history) {
    let changed = false;
    for (const part of message.parts) {
      if (
        part.type === 'dynamic-tool' &&
        lapsed.includes(part.toolCallId) &&
        part.state === 'approval-requested'
      ) {
        part.state = 'output-denied';
        part.approval = { id: part.approval?.id ?? '', approved: false, reason: LAPSED_REASON };
        changed = true;
      }
    }
    if (changed)
      await ctx.repo.updateMessage(userId, threadId, {
        id: message.id,
        parts: message.parts,
        status: message.status === 'awaiting_approval' ? 'complete' : message.status,
      });
  }
}

/** Drops the answers after the last user message, so it runs again. */
export async function dropLastAnswer(
  ctx: ChatContext,
  userId: number,
  threadId: string,
  history: StoredMessage[],
): Promise<StoredMessage[]> {
  const lastUser = history.findLastIndex((m) => m.role === 'user');
  if (lastUser < 0) throw new HttpError('conflict', 'Nothing to regenerate');
  await ctx.repo.deleteMessages(
    userId,
    threadId,
    history.slice(lastUser + 1).map((m) => m.id),
  );
  return history.slice(0, lastUser + 1);
}

/** Replaces the text of the thread's LAST user message (only that one) and drops the answers after it. */
export async function editLastUserMessage(
  ctx: ChatContext,
  userId: number,
  threadId: string,
  history: StoredMessage[],
  edit: { messageId: string; text: string },
): Promise<StoredMessage[]> {
  const text = edit.text.trim();
  if (!text) throw new HttpError('unprocessable_content', 'The message is empty');
  const lastUser = history.findLastIndex((m) => m.role === 'user');
  const edited = history[lastUser];
  if (!edited || edited.id !== edit.messageId) {
    throw new HttpError('conflict', 'Only the last message you sent can be edited');
  }
  edited.parts = [{ type: 'text', text }];
  await ctx.repo.updateMessage(userId, threadId, { id: edited.id, parts: edited.parts, status: 'complete' });
  await ctx.repo.deleteMessages(
    userId,
    threadId,
    history.slice(lastUser + 1).map((m) => m.id),
  );
  await ctx.audit.record({
    userId,
    action: 'chat.message.edited',
    objectType: 'thread',
    objectId: threadId,
    detail: { messageId: edited.id },
  });
  return history.slice(0, lastUser + 1);
}

/**
 * The user's new message, not yet stored. It keeps the id the client gave it when that id is free,
 * so a later edit finds it.
 */
export async function newUserMessage(
  ctx: ChatContext,
  history: StoredMessage[],
  text: string,
  clientMessageId: string | undefined,
): Promise<StoredMessage> {
  const trimmed = text.trim();
  if (!trimmed) throw new HttpError('unprocessable_content', 'The message is empty');
  const free = clientMessageId !== undefined && !(await ctx.repo.messageIdExists(clientMessageId));
  return {
    id: free ? clientMessageId : crypto.randomUUID(),
    role: 'user',
    parts: [{ type: 'text', text: trimmed }],
    status: 'complete',
    createdAt: laterThan(history.at(-1)?.createdAt),
  };
}
