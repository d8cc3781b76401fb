import type {
  ChatApproval,
  ChatMessage,
  ChatSessionInfo,
  ChatThread,
  ChatTurnRequest,
} from '@cadre/contract';
import type { ApprovalRow } from '../approval-repository.ts';
import type { ThreadRow } from '../repository.ts';
import type { StoredMessage } from '../runtime/messages.ts';
import type { ChatService } from '../service.ts';
import type { ChatPrincipal } from './session-auth.ts';

/** Rows and service results as the contract's response shapes (packages/contract/src/chat.ts). */

export const threadOut = (t: ThreadRow): ChatThread => ({
  id: t.id,
  name: t.name,
  origin: t.origin,
  createdAt: t.created_at,
  updatedAt: t.updated_at,
});

export const messageOut = (m: StoredMessage): ChatMessage => ({
  id: m.id,
  role: m.role,
  parts: m.parts as unknown as Record<string, unknown>[],
  metadata: {
    status: m.status,
    createdAt: m.createdAt,
    ...(m.model && { model: m.model }),
    ...(m.modelName && { modelName: m.modelName }),
  },
});

/**
 * A stored message whose pending approval cards carry the time they have left NOW (their stored
 * descriptor has the time left when they were asked): 0 once the approval expired or lapsed, so a
 * reloaded thread shows "Expired — ask again" instead of live buttons.
 */
export function messageWithApprovalTimes(
  m: StoredMessage,
  approvals: Map<string, ApprovalRow>,
  now: number,
): ChatMessage {
  const parts = m.parts.map((part) => {
    if (part.type !== 'dynamic-tool' || part.state !== 'approval-requested' || !part.approval) return part;
    const row = approvals.get(part.approval.id);
    if (!row) return part;
    const left = row.status === 'pending' ? Math.max(0, Date.parse(row.expires_at) - now) : 0;
    return {
      ...part,
      approval: { ...part.approval, descriptor: { expiresAt: row.expires_at, expiresInMs: left } },
    };
  });
  return messageOut({ ...m, parts });
}

export const approvalOut = (a: ApprovalRow): ChatApproval => ({
  id: a.id,
  toolCallId: a.tool_call_id,
  actionId: a.action_id,
  args: JSON.parse(a.args) as unknown,
  status: a.status as ChatApproval['status'],
  expiresAt: a.expires_at,
});

export const sessionOut = (
  { userId, via }: ChatPrincipal,
  info: Awaited<ReturnType<ChatService['sessionInfo']>>,
): ChatSessionInfo => ({
  user: { id: userId },
  agent: {
    id: info.agent.id,
    name: info.agent.name,
    description: info.agent.description,
    icon: info.agent.icon,
    color: info.agent.color,
    suggestedPrompts: info.suggestedPrompts,
    tools: info.tools.map((t) => ({
      name: t.name,
      displayName: t.displayName,
      description: t.description,
      effect: t.effect,
    })),
  },
  model: info.model,
  via,
});

/** A client-chosen message id: the AI SDK's generated ids and UUIDs. */
const CLIENT_MESSAGE_ID = /^[A-Za-z0-9_-]{8,100}$/;

/**
 * What a chat turn asks for, from either body form: `{threadId?, text}` or `useChat`'s
 * `{id, messages, trigger, messageId?}`, of which only the LAST user message's text and id count.
 */
export function turnOf(body: ChatTurnRequest) {
  const regenerate = body.trigger === 'regenerate-message';
  const lastUser = lastUserMessage(body.messages);
  return {
    threadId: body.threadId ?? body.id,
    text: body.text ?? lastUser?.text,
    regenerate,
    // useChat sends `messageId` with `submit-message` only for an edit of that user message.
    editMessageId: regenerate ? undefined : body.messageId,
    clientMessageId: lastUser?.id,
    timeZone: body.timeZone,
  };
}

function lastUserMessage(messages: unknown[] | undefined): { id?: string; text: string } | undefined {
  if (!messages) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as { id?: unknown; role?: unknown; parts?: unknown } | null;
    if (m?.role !== 'user' || !Array.isArray(m.parts)) continue;
    const text = m.parts
      .map((p: { type?: unknown; text?: unknown }) =>
        p?.type === 'text' && typeof p.text === 'string' ? p.text : '',
      )
      .join('');
    const id = typeof m.id === 'string' && CLIENT_MESSAGE_ID.test(m.id) ? m.id : undefined;
    return { id, text };
  }
  return undefined;
}
