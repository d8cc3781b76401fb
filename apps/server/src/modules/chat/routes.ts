/**
 * The chat service at `/chainlit` — HTTP contract (the chat frame and the copilot widget use it).
 *
 * Authentication
 * - `POST /chainlit/auth/header` — `Authorization: Bearer <API access token>` and `X-Agent-Id: <id>`
 *   (or `agent-id`). Verifies the token exactly as the API does (the injected `verifyAccessToken`),
 *   checks that the agent belongs to the user, stores a session (table `chat_sessions`, only the
 *   SHA-256 of the value) and sets the cookie `cadre_chat_session` (HttpOnly, SameSite=Strict,
 *   Path=/chainlit, Secure on https, 8 hours). 200 `{"success": true}`; any failure 401
 *   `{"detail": "credentialssignin"}`.
 * - `POST /chainlit/logout` — deletes the session and clears the cookie. 200 `{"success": true}`.
 * - Every other route is authenticated by EITHER the session cookie OR, for the copilot widget,
 *   `Authorization: Bearer <copilot token>` (the injected `verifyCopilotToken`; no third-party
 *   cookie). A session is bound to one user and one agent. Missing/invalid: 401.
 * - CSRF: with the cookie, every POST/PATCH/DELETE needs `X-Requested-With: cadre-chat` and an
 *   `Origin` equal to PUBLIC_URL's origin (else 403). Bearer requests carry no ambient credential.
 *
 * Endpoints (JSON unless noted; another user's thread or approval answers 404)
 * - `GET    /chainlit/session` — `{user:{id}, agent:{id,name,description,suggestedPrompts,tools}, model:{provider,modelId,offline,label,configured}, via}`.
 * - `GET    /chainlit/threads` — `{data: Thread[]}` for this user and agent, newest first.
 * - `POST   /chainlit/threads` `{name?}` — 201 Thread.
 * - `PATCH  /chainlit/threads/:threadId` `{name}` — Thread.
 * - `DELETE /chainlit/threads/:threadId` — 204 (stops a run in it first).
 * - `GET    /chainlit/threads/:threadId/messages` — `{thread, messages: UIMessage[], approvals}`;
 *   messages are AI SDK `UIMessage`s (parts `text`, `step-start`, `dynamic-tool` with `toolMetadata
 *   {actionId, effect, durationMs}` and `approval {id, approved?, reason?}`), `metadata {status,
 *   createdAt}` where status is complete | interrupted | error | awaiting_approval | streaming.
 * - `POST   /chainlit/chat` — a turn. Body `{threadId?, text}` or useChat's default body `{id,
 *   messages, trigger, messageId?}` (`id` = thread id; only the last user message's text and id
 *   are used, the id is kept when free; `trigger: 'regenerate-message'` re-runs the last user
 *   message; `submit-message` with `messageId` = the thread's last user message is an edit: that
 *   message's text is replaced and the answers after it are dropped, any other `messageId` 409).
 *   A new thread is created when the id is unknown. Answer: an AI SDK UI message stream (SSE, header `x-vercel-ai-ui-message-stream: v1`,
 *   plus `x-thread-id`), readable by `@ai-sdk/react` v3 `useChat` with `DefaultChatTransport`. The
 *   `start` chunk's metadata is `{threadId, runId, offline}`; the `finish` chunk's is `{status,
 *   errorCategory?, pendingApprovals}`. Errors arrive as `error` chunks whose text is the
 *   user-facing message; `errorCategory` is no_model | rate_limited | spend_limit | provider_down |
 *   timeout | provider_error | limit. A write/send tool call arrives as `tool-input-available`
 *   followed by `tool-approval-request {approvalId, toolCallId}` and the turn ends. Closing the
 *   connection stops the run; the partial answer is saved with status `interrupted`.
 *   More than CHAT_TURNS_PER_MINUTE turns/decisions per user per minute: 429 with Retry-After.
 * - `POST   /chainlit/threads/:threadId/stop` — `{stopped}`; aborts the model call and running tools.
 * - `POST   /chainlit/approvals/:approvalId/approve` `{toolCallId?, args?}` — runs exactly the stored
 *   call once and continues the same assistant message: a UI message stream that starts with
 *   `tool-output-available` (or `tool-output-error`) for the call. 404 unknown or someone else's,
 *   409 already decided / mismatching toolCallId or args / tool no longer attached, 410 expired.
 * - `POST   /chainlit/approvals/:approvalId/deny` `{toolCallId?, reason?}` — records the denial,
 *   reports it to the model and streams the continuation (starts with `tool-output-denied`).
 *
 * Every response under /chainlit sends `Content-Security-Policy: ... frame-ancestors 'self'` and
 * `X-Frame-Options: SAMEORIGIN` (the rest of the app sends 'none' / DENY).
 */
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import cookie from '@fastify/cookie';
import { createUIMessageStreamResponse, type UIMessageChunk } from 'ai';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CHAT_CSRF_HEADER,
  CHAT_CSRF_VALUE,
  CHAT_SESSION_COOKIE,
  chatApproveRequestSchema,
  chatAuthSuccessSchema,
  chatDenyRequestSchema,
  chatSessionInfoSchema,
  chatStopResultSchema,
  chatThreadCreateSchema,
  chatThreadListSchema,
  chatThreadMessagesSchema,
  chatThreadRenameSchema,
  chatThreadSchema,
  chatTurnRequestSchema,
} from '@cadre/contract';
import type { AppDeps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';
import { hitRateLimit } from '../../security/rate-limit.ts';
import { createHostFunctionBridge, HOST_FUNCTION_PROMPT, hostFunctionRoutes } from './host-functions.ts';
import { selectModel, type ModelSelection } from './llm/select-model.ts';
import type { ThreadRow } from './repository.ts';
import type { StoredMessage } from './runtime/messages.ts';
import type { ToolExecutor } from './runtime/ports.ts';
import { createChatService } from './service.ts';
import { CHAT_FRAME_CSP } from '../../http/security-headers.ts';
import { registerChatStatic } from './static.ts';
import { chatAudit } from './audit.ts';

export interface ChatModuleOptions {
  /** Verifies an API access token exactly as the API does (wired by the lead to the API core). */
  verifyAccessToken?: (token: string) => Promise<{ id: number } | null>;
  /** Verifies a copilot token (from `POST /api/v1/auth/chainlit-copilot-login`). */
  verifyCopilotToken?: (token: string) => Promise<{ userId: number; agentId: number } | null>;
  /** The tools layer (lists attached tools, executes with the user's own connection). */
  toolExecutor?: ToolExecutor;
  /** Overrides the model chosen from configuration (tests). */
  modelSelection?: ModelSelection;
  /**
   * How cookie sessions are authenticated. Default: the `/chainlit` sessions that
   * `POST /auth/header` creates (those sign-in routes are then registered). A mount with its own
   * strategy (the demos at `/demos`) brings its own sign-in and sign-out, so `/auth/header` and
   * `/logout` are not registered there, and sessions of one mount are never accepted by another.
   */
  sessionStrategy?: ChatSessionStrategy;
  /** Suggested prompts for the session's agent; when it gives none they are derived from the tools. */
  suggestedPrompts?: (userId: number, agentId: number) => Promise<string[] | undefined>;
}

export interface ChatSessionStrategy {
  /** The cookie that carries the session value. */
  cookieName: string;
  /** The user and agent of a session value, or undefined when it is unknown or expired. */
  resolve(value: string): Promise<{ userId: number; agentId: number } | undefined>;
}

export type ChatPluginOptions = AppDeps & ChatModuleOptions;

interface ChatPrincipal {
  userId: number;
  agentId: number;
  via: 'cookie' | 'copilot';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Chat routes: 'none' for the sign-in routes, otherwise a chat session or copilot token. */
    chatAuth?: 'none' | 'session';
  }
}

const SESSION_TTL_SECONDS = 8 * 60 * 60;
const CREDENTIALS_SIGN_IN = 'credentialssignin';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const hashSession = (value: string) => createHash('sha256').update(value).digest('hex');

const principals = new WeakMap<FastifyRequest, ChatPrincipal>();
const principalOf = (request: FastifyRequest): ChatPrincipal => {
  const principal = principals.get(request);
  if (!principal) throw new HttpError(401, 'Not signed in to the chat');
  return principal;
};

const bearer = (request: FastifyRequest): string | undefined => {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
};

const threadOut = (t: ThreadRow) => ({
  id: t.id,
  name: t.name,
  origin: t.origin,
  createdAt: t.created_at,
  updatedAt: t.updated_at,
});

const messageOut = (m: StoredMessage) => ({
  id: m.id,
  role: m.role,
  parts: m.parts as unknown as Record<string, unknown>[],
  metadata: { status: m.status, createdAt: m.createdAt },
});

const threadParams = z.object({ threadId: z.string().max(100) });
const approvalParams = z.object({ approvalId: z.string().max(100) });
const errorSchema = z.object({ detail: z.string() });

export const chatRoutes: FastifyPluginAsyncZod<ChatPluginOptions> = async (app, options) => {
  const { config, db } = options;
  const executor = options.toolExecutor;
  if (!executor) throw new Error('The chat routes need a toolExecutor (see app.ts)');
  const selection = options.modelSelection ?? selectModel(config.llm);
  const ownSignIn = options.sessionStrategy === undefined;
  // One bridge for the copilot's host-page functions: the runs ask through it, `/fn-results`
  // answers through it. Only the /chainlit mount (where the copilot signs in) has one.
  const hostFunctions = ownSignIn ? createHostFunctionBridge() : undefined;
  const service = createChatService({
    hostFunctions,
    db,
    audit: chatAudit(options.audit),
    executor,
    selection,
    limits: {
      maxSteps: config.llm.maxSteps,
      maxToolCallsPerTurn: config.llm.maxToolCallsPerTurn,
      maxOutputTokens: config.llm.maxOutputTokens,
    },
  });
  const repo = service.repo;
  const publicOrigin = new URL(config.publicUrl).origin;
  const secureCookie = config.publicUrl.startsWith('https:');

  const sessions: ChatSessionStrategy = options.sessionStrategy ?? {
    cookieName: CHAT_SESSION_COOKIE,
    resolve: async (value) => {
      const row = await repo.findSession(hashSession(value));
      return row && { userId: row.user_id, agentId: row.agent_id };
    },
  };

  // A parent plugin (the demos) may have registered the cookie parser already.
  if (!app.hasRequestDecorator('cookies')) await app.register(cookie);

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('content-security-policy', CHAT_FRAME_CSP);
    reply.header('x-frame-options', 'SAMEORIGIN');
    // Chat answers are private and change with every turn; the frame's static files set their own
    // caching (hashed assets are immutable), which this must not overwrite.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.config.chatAuth === 'none') return;
    const token = bearer(request);
    let principal: ChatPrincipal | undefined;
    if (token !== undefined) {
      const verified = options.verifyCopilotToken
        ? await options.verifyCopilotToken(token).catch(() => null)
        : null;
      if (!verified) throw new HttpError(401, 'Invalid copilot token');
      const agent = await repo.findOwnedAgent(verified.userId, verified.agentId);
      if (!agent) throw new HttpError(401, 'Invalid copilot token');
      principal = { userId: verified.userId, agentId: verified.agentId, via: 'copilot' };
    } else {
      const value = request.cookies[sessions.cookieName];
      const session = value ? await sessions.resolve(value) : undefined;
      if (!session) throw new HttpError(401, 'Not signed in to the chat');
      if (STATE_CHANGING.has(request.method)) assertSameOriginRequest(request);
      principal = { userId: session.userId, agentId: session.agentId, via: 'cookie' };
    }
    principals.set(request, principal);
  });

  function assertSameOriginRequest(request: FastifyRequest) {
    if (request.headers[CHAT_CSRF_HEADER] !== CHAT_CSRF_VALUE) {
      throw new HttpError(403, `Missing the ${CHAT_CSRF_HEADER}: ${CHAT_CSRF_VALUE} header`);
    }
    if (request.headers.origin !== publicOrigin) throw new HttpError(403, 'Cross-origin request refused');
  }

  /** Sends a UI message stream; a client that goes away aborts `controller`. */
  function sendStream(reply: FastifyReply, stream: ReadableStream<UIMessageChunk>, threadId: string) {
    const response = createUIMessageStreamResponse({ stream, headers: { 'x-thread-id': threadId } });
    response.headers.forEach((value, key) => void reply.header(key, value));
    reply.code(response.status);
    return reply.send(Readable.fromWeb(response.body as unknown as NodeWebReadableStream));
  }

  function disconnectSignal(reply: FastifyReply): AbortSignal {
    const controller = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) controller.abort(new Error('client disconnected'));
    });
    return controller.signal;
  }

  /** Chat turns cost model tokens: one user gets CHAT_TURNS_PER_MINUTE, then 429 with Retry-After. */
  async function limitTurns(userId: number, on: Pick<typeof db, 'kysely'> = db) {
    const hit = await hitRateLimit(on, `chat-turn:${userId}`, {
      limit: config.llm.turnsPerMinute,
      windowSeconds: 60,
    });
    if (!hit.allowed) {
      throw new HttpError(429, 'Too many chat messages; wait a moment', {
        'retry-after': String(hit.retryAfterSeconds),
      });
    }
  }

  const tags = ['chat'];

  if (ownSignIn) {
    // The chat frame's page and assets, the copilot bundle (static.ts), and host-page function
    // results for the copilot (host-functions.ts) belong to the /chainlit mount only; /demos serves
    // the frame itself.
    await registerChatStatic(app);
    await app.register(hostFunctionRoutes, { bridge: hostFunctions!, principalOf });
    registerSignInRoutes();
  }

  function registerSignInRoutes() {
    app.post(
      '/auth/header',
      {
        config: { public: true, chatAuth: 'none' },
        schema: {
          hide: true,
          operationId: 'chatAuthHeader',
          tags,
          response: { 200: chatAuthSuccessSchema, 401: errorSchema },
        },
      },
      async (request, reply) => {
        const token = bearer(request);
        const rawAgent = request.headers['x-agent-id'] ?? request.headers['agent-id'];
        const agentId =
          typeof rawAgent === 'string' && /^\d{1,12}$/.test(rawAgent.trim()) ? Number(rawAgent) : undefined;
        // With sign-in switched off (DISABLE_AUTH, never in production) the web app sends no token and
        // every caller is the mock user, exactly as on the API.
        const user =
          (token || config.auth.disabled) && options.verifyAccessToken
            ? await options.verifyAccessToken(token ?? '').catch(() => null)
            : null;
        const agent = user && agentId !== undefined ? await repo.findOwnedAgent(user.id, agentId) : undefined;
        if (!user || !agent) return reply.code(401).send({ detail: CREDENTIALS_SIGN_IN });
        const value = randomBytes(32).toString('base64url');
        await repo.createSession({
          idHash: hashSession(value),
          userId: user.id,
          agentId: agent.id,
          expiresAt: new Date(Date.now() + SESSION_TTL_SECONDS * 1000).toISOString(),
        });
        reply.setCookie(CHAT_SESSION_COOKIE, value, {
          path: '/chainlit',
          httpOnly: true,
          sameSite: 'strict',
          secure: secureCookie,
          maxAge: SESSION_TTL_SECONDS,
        });
        return { success: true as const };
      },
    );

    app.post(
      '/logout',
      {
        config: { public: true, chatAuth: 'none' },
        schema: { hide: true, operationId: 'chatLogout', tags, response: { 200: chatAuthSuccessSchema } },
      },
      async (request, reply) => {
        const value = request.cookies[CHAT_SESSION_COOKIE];
        if (value) {
          assertSameOriginRequest(request);
          await repo.deleteSession(hashSession(value));
        }
        reply.clearCookie(CHAT_SESSION_COOKIE, {
          path: '/chainlit',
          httpOnly: true,
          sameSite: 'strict',
          secure: secureCookie,
        });
        return { success: true as const };
      },
    );
  }

  app.get(
    '/session',
    {
      config: { public: true },
      schema: { hide: true, operationId: 'chatSession', tags, response: { 200: chatSessionInfoSchema } },
    },
    async (request) => {
      const { userId, agentId, via } = principalOf(request);
      const { agent, tools } = await service.sessionInfo(userId, agentId);
      const custom = options.suggestedPrompts ? await options.suggestedPrompts(userId, agentId) : undefined;
      const suggestedPrompts = custom?.length
        ? [...custom]
        : tools.length
          ? tools
              .slice(0, 3)
              .map((t) => (t.description ? `${t.displayName}: ${t.description}` : t.displayName))
          : ['What can you do?'];
      // In the copilot, the phrase that makes even the offline model call a host-page function.
      if (via === 'copilot' && hostFunctions) suggestedPrompts.push(HOST_FUNCTION_PROMPT);
      return {
        user: { id: userId },
        agent: {
          id: agent.id,
          name: agent.name,
          description: agent.description,
          suggestedPrompts,
          tools: tools.map((t) => ({
            name: t.name,
            displayName: t.displayName,
            description: t.description,
            effect: t.effect,
          })),
        },
        model: {
          provider: selection.provider,
          modelId: selection.modelId,
          offline: selection.isOffline,
          label: selection.label ?? null,
          configured: selection.model !== undefined,
        },
        via,
      };
    },
  );

  app.get(
    '/threads',
    {
      config: { public: true },
      schema: { hide: true, operationId: 'chatListThreads', tags, response: { 200: chatThreadListSchema } },
    },
    async (request) => {
      const { userId, agentId } = principalOf(request);
      return { data: (await service.listThreads(userId, agentId)).map(threadOut) };
    },
  );

  app.post(
    '/threads',
    {
      config: { public: true },
      schema: {
        hide: true,
        operationId: 'chatCreateThread',
        tags,
        body: chatThreadCreateSchema,
        response: { 201: chatThreadSchema },
      },
    },
    async (request, reply) => {
      const { userId, agentId } = principalOf(request);
      const thread = await service.createThread(userId, agentId, request.body?.name);
      return reply.code(201).send(threadOut(thread));
    },
  );

  app.patch(
    '/threads/:threadId',
    {
      config: { public: true },
      schema: {
        hide: true,
        operationId: 'chatRenameThread',
        tags,
        params: threadParams,
        body: chatThreadRenameSchema,
        response: { 200: chatThreadSchema },
      },
    },
    async (request) => {
      const { userId, agentId } = principalOf(request);
      return threadOut(
        await service.renameThread(userId, agentId, request.params.threadId, request.body.name),
      );
    },
  );

  app.delete(
    '/threads/:threadId',
    {
      config: { public: true },
      schema: { hide: true, operationId: 'chatDeleteThread', tags, params: threadParams },
    },
    async (request, reply) => {
      const { userId, agentId } = principalOf(request);
      await service.deleteThread(userId, agentId, request.params.threadId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/threads/:threadId/messages',
    {
      config: { public: true },
      schema: {
        hide: true,
        operationId: 'chatThreadMessages',
        tags,
        params: threadParams,
        response: { 200: chatThreadMessagesSchema },
      },
    },
    async (request) => {
      const { userId, agentId } = principalOf(request);
      const { thread, messages, approvals } = await service.threadMessages(
        userId,
        agentId,
        request.params.threadId,
      );
      return {
        thread: threadOut(thread),
        messages: messages.map(messageOut),
        approvals: approvals.map((a) => ({
          id: a.id,
          toolCallId: a.tool_call_id,
          actionId: a.action_id,
          args: JSON.parse(a.args) as unknown,
          status: a.status as 'pending',
          expiresAt: a.expires_at,
        })),
      };
    },
  );

  app.post(
    '/threads/:threadId/stop',
    {
      config: { public: true },
      schema: {
        hide: true,
        operationId: 'chatStop',
        tags,
        params: threadParams,
        response: { 200: chatStopResultSchema },
      },
    },
    async (request) => {
      const { userId, agentId } = principalOf(request);
      return { stopped: await service.stop(userId, agentId, request.params.threadId) };
    },
  );

  app.post(
    '/chat',
    {
      config: { public: true },
      bodyLimit: 2 * 1024 * 1024,
      schema: { hide: true, operationId: 'chatTurn', tags, body: chatTurnRequestSchema },
    },
    async (request, reply) => {
      const { userId, agentId, via } = principalOf(request);
      const body = request.body;
      const regenerate = body.trigger === 'regenerate-message';
      const lastUser = lastUserMessage(body.messages);
      const text = body.text ?? lastUser?.text;
      const { threadId, stream } = await service.startTurn({
        userId,
        agentId,
        threadId: body.threadId ?? body.id,
        text,
        regenerate,
        // useChat sends `messageId` with `submit-message` only for an edit of that user message.
        editMessageId: !regenerate ? body.messageId : undefined,
        clientMessageId: lastUser?.id,
        via,
        // Counted in the commit that stores the turn: one commit before the first token.
        rateLimit: (trx) => limitTurns(userId, trx),
        signal: disconnectSignal(reply),
      });
      return sendStream(reply, stream, threadId);
    },
  );

  for (const decision of ['approve', 'deny'] as const) {
    app.post(
      `/approvals/:approvalId/${decision}`,
      {
        config: { public: true },
        schema: {
          hide: true,
          operationId: decision === 'approve' ? 'chatApprove' : 'chatDeny',
          tags,
          params: approvalParams,
          body: (decision === 'approve' ? chatApproveRequestSchema : chatDenyRequestSchema).optional(),
        },
      },
      async (request, reply) => {
        const { userId, agentId, via } = principalOf(request);
        await limitTurns(userId);
        const body = (request.body ?? {}) as { toolCallId?: string; args?: unknown; reason?: string };
        const { threadId, stream } = await service.decide({
          userId,
          agentId,
          approvalId: request.params.approvalId,
          decision,
          toolCallId: body.toolCallId,
          args: 'args' in body ? body.args : undefined,
          reason: body.reason,
          via,
          signal: disconnectSignal(reply),
        });
        return sendStream(reply, stream, threadId);
      },
    );
  }
};

/** A client-chosen message id: the AI SDK's generated ids and UUIDs. */
const CLIENT_MESSAGE_ID = /^[A-Za-z0-9_-]{8,100}$/;

/** The text (and usable id) of the last user message of useChat's body. */
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
