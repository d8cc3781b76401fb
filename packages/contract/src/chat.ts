import type { UIMessage } from 'ai';
import { z } from 'zod';
import type { ErrorCode } from './errors.ts';
import { pageQuerySchema } from './paging.ts';

/**
 * The chat service's HTTP contract (`/chainlit/...`, and `/demos/...` with the demo cookie), shared
 * by the server and the chat frame. Each schema below names its route.
 *
 * Authentication: every route except sign-in and the frame's files needs EITHER the session cookie
 * OR, for the copilot widget, `Authorization: Bearer <copilot token>` (no third-party cookie); 401
 * otherwise. A session is bound to one user and one of their agents; another user's thread or
 * approval answers 404. With the cookie, every POST/PATCH/DELETE needs {@link CHAT_CSRF_HEADER}
 * and an `Origin` equal to PUBLIC_URL's origin (else 403). Responses allow framing by our own
 * origin only (`frame-ancestors 'self'`, `X-Frame-Options: SAMEORIGIN`) and are not cached.
 *
 * Streams: `POST /chat` and the approval decisions answer with an AI SDK UI message stream (SSE,
 * `x-vercel-ai-ui-message-stream: v1`, plus `x-thread-id`), readable by `useChat`'s
 * `DefaultChatTransport`; its messages are {@link CadreUIMessage}s. A
 * write/send tool call arrives as `tool-input-available` then `tool-approval-request` and the turn
 * ends. Closing the connection stops the run (a turn's, once nobody has rejoined it for 3 s); the
 * partial answer is kept as `interrupted`. `GET /chat/:threadId/stream` rejoins the thread's answer
 * still being written, from its first chunk to its end (useChat's `resumeStream`; 204: none). More
 * than CHAT_TURNS_PER_MINUTE turns and decisions per user per minute answer 429 with Retry-After.
 */

export * from './chat-headers.ts';

/**
 * `POST /chainlit/auth/header` with `Authorization: Bearer <API access token>` and `X-Agent-Id`
 * (or `agent-id`) sets the agent's session cookie and {@link CHAT_SESSION_COOKIE}; any failure
 * answers 401 `{"detail": "credentialssignin", "code": "unauthorized"}`, an agent that is not the
 * caller's 404 `not_found`.
 * `POST /chainlit/logout` with `X-Agent-Id` ends that agent's session in this browser; without it,
 * every chat session of this browser; with the API access token, every chat session of the user.
 */
export const chatAuthSuccessSchema = z.object({ success: z.literal(true) });

export const chatToolSummarySchema = z.object({
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  effect: z.enum(['read', 'write', 'send']),
});

/** `GET /session`: the signed-in user, the session's agent and the model it runs on. */
export const chatSessionInfoSchema = z.object({
  user: z.object({ id: z.number().int() }),
  agent: z.object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    /** How the agent looks (see the agents contract): an emoji or `avatar:<style>`, and a palette name. */
    icon: z.string().nullable().optional(),
    color: z.string().nullable().optional(),
    suggestedPrompts: z.array(z.string()),
    tools: z.array(chatToolSummarySchema),
  }),
  model: z.object({
    /** The offered model's id (`GET /api/v1/models`) the agent's answers come from. */
    id: z.string(),
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

/** `GET /threads`: this user's threads with the session's agent, newest first (the latest 200, or a page). */
export const chatThreadListSchema = z.object({
  data: z.array(chatThreadSchema),
  /** Only when a page was asked for: the cursor of the next (older) page, null at the last. */
  nextCursor: z.string().nullable().optional(),
});

/** `PUT /messages/:messageId/feedback`: a rating of one of the caller's answers; DELETE takes it back (204). */
export const chatFeedbackSchema = z.strictObject({
  rating: z.enum(['up', 'down'], { error: 'must be "up" or "down"' }),
  comment: z
    .string()
    .trim()
    .max(1000, 'must be at most 1000 characters')
    .refine((value) => !value.includes('\u0000'), 'must not contain NUL characters')
    .nullable()
    .optional(),
});
export const chatFeedbackOutSchema = z.object({
  messageId: z.string(),
  rating: z.enum(['up', 'down']),
  comment: z.string().nullable(),
  updatedAt: z.string(),
});
export type ChatFeedback = z.infer<typeof chatFeedbackOutSchema>;

/** `GET /threads?q=`: threads whose name or message text holds `q` (case-insensitive), newest first. */
export const CHAT_SEARCH_LIMIT = 50;
export const chatThreadListQuerySchema = z.object({
  q: z.string().trim().max(200, 'must be at most 200 characters').optional(),
  /** Paging (without `q`): at most `limit` threads older than the thread `cursor` names. */
  limit: pageQuerySchema.shape.limit,
  cursor: z.string().min(1).max(100, 'must be a cursor a previous page named').optional(),
});

/** `POST /threads` (201 Thread), `PATCH /threads/:threadId` (Thread); `DELETE /threads/:threadId` 204 stops its run first. */
export const chatThreadCreateSchema = z.strictObject({ name: z.string().trim().min(1).max(200).optional() });
export const chatThreadRenameSchema = z.strictObject({ name: z.string().trim().min(1).max(200) });

export const chatMessageStatusSchema = z.enum([
  'streaming',
  'complete',
  'interrupted',
  'error',
  'awaiting_approval',
]);
export type ChatMessageStatus = z.infer<typeof chatMessageStatusSchema>;

/**
 * The error codes (errors.ts) a model call fails with. The OpenAI-compatible API answers them with
 * their status; the chat reports them as a run's `errorCategory`.
 */
export const MODEL_FAILURE_CODES = [
  'no_model',
  'rate_limited',
  'spend_limit',
  'provider_down',
  'timeout',
  'provider_error',
] as const satisfies readonly ErrorCode[];
export type ModelFailureCode = (typeof MODEL_FAILURE_CODES)[number];

/**
 * Why a run ended badly: a model failure, or `limit` (the turn used its steps or tool calls, which
 * is no error answer). The frame picks its error state (and retry) from it.
 */
export const chatErrorCategorySchema = z.enum([...MODEL_FAILURE_CODES, 'limit']);
export type ChatErrorCategory = z.infer<typeof chatErrorCategorySchema>;

/**
 * An assistant message's metadata. The stream's `start` chunk carries `{threadId, runId, offline}`
 * and its `finish` chunk `{status, errorCategory?, pendingApprovals}`; a stored message carries
 * `{status, createdAt}`.
 */
export const chatMessageMetadataSchema = z.object({
  threadId: z.string().optional(),
  runId: z.string().optional(),
  offline: z.boolean().optional(),
  status: chatMessageStatusSchema.optional(),
  errorCategory: chatErrorCategorySchema.optional(),
  pendingApprovals: z.array(z.string()).optional(),
  createdAt: z.string().optional(),
  /** The model that wrote the answer (sent when the answer starts streaming): its id... */
  model: z.string().optional(),
  /** ...and its display name (LLM_MODELS `label`), which the frame shows. */
  modelName: z.string().optional(),
});
export type ChatMessageMetadata = z.infer<typeof chatMessageMetadataSchema>;

/**
 * The data parts of the stream: `data-error` ends a run with a visible error (stored with the
 * message); `data-call-fn` (copilot only, transient) asks the embedding page to run a function,
 * whose result goes to `POST /fn-results/:callId {result}` on any instance (204; 404 unknown,
 * answered or someone else's; 410 expired).
 */
export const chatDataPartSchemas = {
  error: z.object({ category: z.string(), message: z.string() }),
  /** Shown above the answer: it came from the default model as the agent's is no longer offered. */
  notice: z.object({ message: z.string() }),
  'call-fn': z.object({ callId: z.string(), name: z.string(), args: z.unknown() }),
};
export type ChatDataParts = {
  [K in keyof typeof chatDataPartSchemas]: z.infer<(typeof chatDataPartSchemas)[K]>;
};

/** A chat message as the frame holds it: an AI SDK UI message with Cadre's metadata and data parts. */
export type CadreUIMessage = UIMessage<ChatMessageMetadata, ChatDataParts>;

/**
 * A stored message in AI SDK UIMessage shape: parts `text`, `step-start`, `dynamic-tool` (with
 * `toolMetadata {actionId, effect, durationMs}` and `approval {id, approved?, reason?, descriptor?}`,
 * the descriptor being a {@link chatApprovalDescriptorSchema}) and
 * `data-error`.
 */
export const chatMessageSchema = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  parts: z.array(z.record(z.string(), z.unknown())),
  metadata: z.object({
    status: chatMessageStatusSchema,
    createdAt: z.string(),
    /** The model that wrote an answer, where it was recorded. */
    model: z.string().optional(),
    /** That model's display name, while the model is still offered. */
    modelName: z.string().optional(),
  }),
});

export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const chatApprovalSchema = z.object({
  id: z.string(),
  toolCallId: z.string(),
  actionId: z.number().int(),
  args: z.unknown(),
  status: z.enum(['pending', 'approved', 'denied', 'executed', 'expired']),
  expiresAt: z.string(),
});

export type ChatApproval = z.infer<typeof chatApprovalSchema>;

/**
 * When a pending approval expires: the `approvalDescriptor` of a `tool-approval-request` chunk,
 * which the AI SDK keeps as the part's `approval.descriptor`, and the same in stored messages.
 * `expiresInMs` is the time left when the server sent it (recomputed on every
 * `GET /threads/:threadId/messages`, 0 once expired or lapsed), so the frame counts down from
 * when it received it and a wrong client clock does not matter.
 */
export const chatApprovalDescriptorSchema = z.object({
  expiresAt: z.string(),
  expiresInMs: z.number().int().min(0),
});
export type ChatApprovalDescriptor = z.infer<typeof chatApprovalDescriptorSchema>;

/** `GET /threads/:threadId/messages`. */
export const chatThreadMessagesSchema = z.object({
  thread: chatThreadSchema,
  messages: z.array(chatMessageSchema),
  approvals: z.array(chatApprovalSchema),
  /** Only when a page was asked for: the cursor of the page of older messages, null at the first. */
  nextCursor: z.string().nullable().optional(),
});

/**
 * `GET /threads/:threadId/messages?limit=&cursor=`: without them every message, as before; with
 * `limit`, the newest `limit` messages older than the message `cursor` names (oldest first on the
 * page), and `nextCursor` for the page before them.
 */
export const chatThreadMessagesQuerySchema = z.object({
  limit: pageQuerySchema.shape.limit,
  cursor: z.string().min(1).max(100, 'must be a cursor a previous page named').optional(),
});

/** Zones already accepted: building the `Intl.DateTimeFormat` that tells costs more than the rest of a turn's checks. */
const knownTimeZones = new Set<string>();
function isTimeZone(zone: string): boolean {
  if (knownTimeZones.has(zone)) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
  } catch {
    return false;
  }
  // Only valid names are kept, and there are a few hundred of them.
  knownTimeZones.add(zone);
  return true;
}

/**
 * `POST /chat`, a turn. Either the compact form `{threadId?, text}` or the body `useChat`'s default
 * transport sends (`{id, messages, trigger, messageId?}`): then `id` is the thread id and only the
 * text (and, when free, the id) of the LAST user message is used; the server's stored history is the
 * only history the model sees. An unknown thread id creates the thread. `regenerate-message` re-runs
 * the last user message; `submit-message` with `messageId` = the thread's last user message is an
 * edit (its text replaced, the answers after it dropped; any other `messageId` 409).
 */
export const chatTurnRequestSchema = z.object({
  threadId: z.uuid().optional(),
  id: z.uuid().optional(),
  text: z.string().max(32_000).optional(),
  messages: z.array(z.unknown()).max(1000).optional(),
  trigger: z.enum(['submit-message', 'regenerate-message']).optional(),
  messageId: z.string().max(200).optional(),
  /** The person's IANA time zone (the frame sends the browser's), for dates such as "tomorrow at 3pm". */
  timeZone: z
    .string()
    .max(64)
    .refine(isTimeZone, 'must be an IANA time zone such as Europe/Paris')
    .optional(),
});
export type ChatTurnRequest = z.infer<typeof chatTurnRequestSchema>;

/**
 * `POST /approvals/:approvalId/approve` runs exactly the stored call once and continues the same
 * assistant message (the stream starts with `tool-output-available` or `tool-output-error`);
 * `.../deny` records the denial and continues (`tool-output-denied`). 404 unknown or someone
 * else's; 409 `approval_closed` already decided or a mismatching toolCallId or args, 409
 * `conflict` the tool no longer attached; 410 `expired` "This approval expired; ask again" when its
 * time ran out.
 */
export const chatApproveRequestSchema = z.strictObject({
  /** When given, must be the stored call's id. */
  toolCallId: z.string().max(200).optional(),
  /** When given, must hash to the stored arguments (a changed argument is refused). */
  args: z.unknown().optional(),
  /**
   * "Always allow for this agent": approves this call and lets the tool run without asking from
   * now on (audited; the agent editor switches it back to "Ask every time").
   */
  alwaysAllow: z.boolean().optional(),
});

/** What the server answers for a decision on an approval whose time ran out. */
export const APPROVAL_EXPIRED_DETAIL = 'This approval expired; ask again';
/** ...on one already approved or denied (by another tab, say). */
export const APPROVAL_DECIDED_DETAIL = 'This approval was already decided';
/** ...on one whose tool call is not the one named. */
export const APPROVAL_MISMATCH_DETAIL = 'The approval does not match this tool call';
export const chatDenyRequestSchema = z.strictObject({
  toolCallId: z.string().max(200).optional(),
  reason: z.string().max(1000).optional(),
});

/**
 * `POST /threads/:threadId/stop`: aborts the model call and running tools, and answers once the
 * thread is free for the next message.
 */
export const chatStopResultSchema = z.object({
  stopped: z.boolean().describe('Whether a running answer was ended'),
  outcome: z
    .enum(['stopped', 'released', 'idle'])
    .describe(
      'stopped: the server answering ended it; released: that server was gone, so the answer was ended ' +
        'as interrupted with what it saved; idle: nothing was running',
    ),
  detail: z.string().describe('What happened, for the person'),
});
export type ChatStopResult = z.infer<typeof chatStopResultSchema>;
