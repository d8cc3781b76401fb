import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CHAT_FRAME_CSP } from '../../http/security-headers.ts';
import { notFound } from '../../http/errors.ts';
import { createHostFunctionBridge } from './host-functions.ts';
import { defaultChatDist, frameFiles } from './http/frame-files.ts';
import { hostFunctionRoutes } from './http/host-function-routes.ts';
import { principalOf, registerSessionAuth, type ChatSessionStrategy } from './http/session-auth.ts';
import { signInRoutes } from './http/sign-in-routes.ts';
import { threadRoutes } from './http/thread-routes.ts';
import { feedbackRoutes } from './http/feedback-routes.ts';
import { turnRoutes } from './http/turn-routes.ts';
import type { ModelSelection } from './llm/select-model.ts';
import type { ToolExecutor } from './runtime/ports.ts';
import { chatDepsFrom } from './app-deps.ts';
import { createChatService } from './service.ts';
import { createChatSessions, type ChatSessionsDeps } from './sessions.ts';
import type { ChatAppDeps } from './ports.ts';

/*
 * The chat service's HTTP contract (used by the chat frame and the copilot widget) is declared once,
 * in packages/contract/src/chat.ts.
 */

export interface ChatModuleOptions extends Pick<
  ChatSessionsDeps,
  'verifyAccessToken' | 'verifyCopilotToken'
> {
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
  /** The built chat frame's folder (default: apps/chat/dist, see `defaultChatDist`). */
  chatDistDir?: string;
  /** Suggested prompts for the session's agent; when it gives none they are derived from the tools. */
  suggestedPrompts?: (userId: number, agentId: number) => Promise<string[] | undefined>;
}

export type ChatPluginOptions = ChatAppDeps & ChatModuleOptions;

/** The chat at `/chainlit` (and, with the demos' own sessions, at `/demos`). */
export const chatRoutes: FastifyPluginAsyncZod<ChatPluginOptions> = async (app, options) => {
  const { config, db } = options;
  const executor = options.toolExecutor;
  if (!executor) throw new Error('The chat routes need a toolExecutor (see app.ts)');
  const ownSignIn = options.sessionStrategy === undefined;
  // One bridge for the copilot's host-page functions: the runs ask through it, `/fn-results`
  // answers through it. Only the /chainlit mount (where the copilot signs in) has one.
  const hostFunctions = ownSignIn ? createHostFunctionBridge(db) : undefined;
  const service = createChatService({
    ...chatDepsFrom(options, app.log, options.modelSelection),
    executor,
    hostFunctions,
    suggestedPrompts: options.suggestedPrompts,
  });
  const sessions = createChatSessions({
    db,
    agents: options.agents,
    authDisabled: config.auth.disabled,
    verifyAccessToken: options.verifyAccessToken,
    verifyCopilotToken: options.verifyCopilotToken,
  });
  const publicOrigin = new URL(config.publicUrl).origin;

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
  if (ownSignIn) {
    // The frame's page and assets, the copilot bundle and the sign-in routes belong to the /chainlit
    // mount only; /demos serves the frame itself.
    await app.register(frameFiles, {
      distDir: options.chatDistDir ?? defaultChatDist(),
      pageCache: 'no-cache',
      copilot: true,
      fallback: true,
      notBuilt: (reply) => reply.send(notFound()),
    });
    await app.register(signInRoutes, {
      sessions,
      publicOrigin,
      secureCookie: config.publicUrl.startsWith('https:'),
    });
  }
  // Everything else needs a chat session or a copilot token.
  await app.register(async (api) => {
    registerSessionAuth(api, {
      sessions: options.sessionStrategy ?? sessions,
      copilot: (token) => sessions.copilot(token),
      publicOrigin,
      embed: ownSignIn
        ? {
            publicOrigin,
            embedOrigins: (userId, agentId) => options.agents.embedOrigins(userId, agentId),
            anyAllowsEmbedOrigin: (origin) => options.agents.anyAllowsEmbedOrigin(origin),
          }
        : undefined,
    });
    if (hostFunctions) await api.register(hostFunctionRoutes, { bridge: hostFunctions, principalOf });
    await api.register(threadRoutes, { service, db });
    await api.register(feedbackRoutes, { service });
    await api.register(turnRoutes, { service, db });
  });
};
