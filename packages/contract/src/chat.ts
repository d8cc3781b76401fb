import { z } from 'zod';

/**
 * The chat service's HTTP contract (`/chainlit/...`), shared by the server and the chat frame.
 * The full endpoint list is documented at the top of apps/server/src/modules/chat/routes.ts.
 */

export const CHAT_CSRF_HEADER = 'x-requested-with';
export const CHAT_CSRF_VALUE = 'cadre-chat';
export const CHAT_SESSION_COOKIE = 'cadre_chat_session';

export const chatAuthSuccessSchema = z.object({ success: z.literal(true) });

export const chatToolSummarySchema = z.object({
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  effect: z.enum(['read', 'write', 'send']),
});

export const chatSessionInfoSchema = z.object({
  user: z.object({ id: z.number().int() }),
  agent: z.object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    suggestedPrompts: z.array(z.string()),
    tools: z.array(chatToolSummarySchema),
  }),
  model: z.object({
    provider: z.enum(['offline', 'openai', 'anthropic', 'openai-compatible']),
    modelId: z.string(),
    offline: z.boolean(),
    /** 'Offline model — configure an LLM provider for full answers' when offline. */
    label: z.string().nullable(),
    /** False when a provider is selected but not fully configured (no model, key or URL). */
    configured: z.boolean(),
  }),
  via: z.enum(['cookie', 'copilot']),
});
export type ChatSessionInfo = z.infer<typeof chatSessionInfoSchema>;

export const chatThreadSchema = z.object({
  id: z.string(),
  name: z.string(),
  origin: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ChatThread = z.infer<typeof chatThreadSchema>;

export const chatThreadListSchema = z.object({ data: z.array(chatThreadSchema) });

export const chatThreadCreateSchema = z.strictObject({ name: z.string().trim().min(1).max(200).optional() });
export const chatThreadRenameSchema = z.strictObject({ name: z.string().trim().min(1).max(200) });

/** A stored message in AI SDK UIMessage shape (parts: text, step-start, dynamic-tool). */
export const chatMessageSchema = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  parts: z.array(z.record(z.string(), z.unknown())),
  metadata: z.object({
    status: z.enum(['streaming', 'complete', 'interrupted', 'error', 'awaiting_approval']),
    createdAt: z.string(),
  }),
});

export const chatApprovalSchema = z.object({
  id: z.string(),
  toolCallId: z.string(),
  actionId: z.number().int(),
  args: z.unknown(),
  status: z.enum(['pending', 'approved', 'denied', 'executed', 'expired']),
  expiresAt: z.string(),
});

export const chatThreadMessagesSchema = z.object({
  thread: chatThreadSchema,
  messages: z.array(chatMessageSchema),
  approvals: z.array(chatApprovalSchema),
});

/**
 * A chat turn. Either the compact form `{threadId?, text}` or the body `useChat`'s default
 * transport sends (`{id, messages, trigger}`): then `id` is the thread id and only the text of the
 * LAST user message is used; the server's stored history is the only history the model sees.
 */
export const chatTurnRequestSchema = z.object({
  threadId: z.uuid().optional(),
  id: z.uuid().optional(),
  text: z.string().max(32_000).optional(),
  messages: z.array(z.unknown()).max(1000).optional(),
  trigger: z.enum(['submit-message', 'regenerate-message']).optional(),
  messageId: z.string().max(200).optional(),
});
export type ChatTurnRequest = z.infer<typeof chatTurnRequestSchema>;

export const chatApproveRequestSchema = z.strictObject({
  /** When given, must be the stored call's id. */
  toolCallId: z.string().max(200).optional(),
  /** When given, must hash to the stored arguments (a changed argument is refused). */
  args: z.unknown().optional(),
});
export const chatDenyRequestSchema = z.strictObject({
  toolCallId: z.string().max(200).optional(),
  reason: z.string().max(1000).optional(),
});

export const chatStopResultSchema = z.object({ stopped: z.boolean() });
