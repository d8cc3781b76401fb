/**
 * The public demos at `/demos` — HTTP contract (the web app's /public/demosRedirect page and the
 * chat frame use it).
 *
 * - `POST /demos/login` — multipart form, fields `username` and `password`. Only `anonymous-user`
 *   with a demo name (`vcdemo`, `customerservicedemo`, `salesoutreachdemo`) as password signs in:
 *   it creates the visitor's own demo user, agent (guidelines and demo tools attached) and copy of
 *   the writable sample data, and sets the cookie `cadre_demo_session` (HttpOnly, SameSite=Lax,
 *   Path=/demos, Secure on https, DEMO_MAX_HOURS). 200 `{"success": true}`; wrong credentials 401
 *   `{"detail": "credentialssignin"}`; not multipart 415; too many parts or too large 413; a foreign
 *   `Origin` 403; more than DEMO_LOGINS_PER_HOUR per client address 429 with `Retry-After`.
 * - `POST /demos/logout` — deletes the session's demo user and all its data; clears the cookie.
 * - `GET  /demos/` — the chat frame (apps/chat) for the session's demo agent.
 * - Every chat route of `/chainlit` (packages/contract/src/chat.ts) also answers under `/demos`,
 *   authenticated by the demo cookie only (no `/auth/header`, no copilot tokens); turns and
 *   approvals are limited to DEMO_CHAT_TURNS_PER_MINUTE per client address (429, `Retry-After`).
 *   `GET /demos/session` returns the demo's suggested prompts.
 *
 * No CORS headers are ever sent: cross-origin callers cannot read any answer. The demo cookie is
 * not accepted by `/chainlit` (a different cookie and session table) nor by `/backend` (bearer
 * tokens only), and a demo agent only ever has its own demo tools.
 */
import { chatAuthSuccessSchema, DEMO_SESSION_COOKIE, errorSchema } from '@cadre/contract';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { HttpError } from '../../http/errors.ts';
import { hitRateLimit } from '../../security/rate-limit.ts';
import { chatRoutes, defaultChatDist, frameFiles, type ChatModuleOptions } from '../chat/index.ts';
import { isDemoName } from './catalog.ts';
import type { DemoDeps } from './ports.ts';
import { createDemoService } from './service.ts';

export const DEMO_USERNAME = 'anonymous-user';
const CREDENTIALS_SIGN_IN = 'credentialssignin';
const SWEEP_INTERVAL_MS = 5 * 60_000;

export interface DemoModuleOptions {
  /** The clock for session expiry and demo data (tests move it). */
  now?: () => Date;
  /** The chat module's collaborators for the demo mount (tests pass a model). */
  chat?: Pick<ChatModuleOptions, 'modelSelection'>;
  /** Where the built chat frame is; defaults to apps/chat/dist. */
  chatDistDir?: string;
}

export type DemoPluginOptions = DemoDeps & DemoModuleOptions;

export const demoRoutes: FastifyPluginAsync<DemoPluginOptions> = async (app, options) => {
  const { config, db } = options;
  const now = options.now ?? (() => new Date());
  const service = createDemoService({
    db,
    users: options.users,
    agents: options.agents,
    config: config.demos,
    now,
  });
  const publicOrigin = new URL(config.publicUrl).origin;
  const secureCookie = config.publicUrl.startsWith('https:');
  const cookieOptions = { path: '/demos', httpOnly: true, sameSite: 'lax' as const, secure: secureCookie };

  await app.register(cookie);
  await app.register(multipart, {
    limits: { fields: 4, fieldSize: 256, fieldNameSize: 32, files: 0, parts: 4, headerPairs: 20 },
  });

  // Expired demo users are also removed lazily (login, each request); this catches the rest.
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      service.sweep().catch((err: unknown) => app.log.warn({ err }, 'demo sweep failed'));
    }, SWEEP_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));

  const clientKey = (request: FastifyRequest) => request.ip;

  async function limit(key: string, max: number, windowSeconds: number, message: string) {
    const result = await hitRateLimit(db, key, { limit: max, windowSeconds, now: now().getTime() });
    if (!result.allowed)
      throw new HttpError('rate_limited', message, { 'retry-after': String(result.retryAfterSeconds) });
  }

  /** Browsers send Origin on POST; one from elsewhere is a cross-site form (login CSRF). */
  function assertOwnOrigin(request: FastifyRequest) {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (origin !== publicOrigin && origin !== `${request.protocol}://${request.host}`) {
      throw new HttpError('forbidden', 'Cross-origin request refused');
    }
  }

  const session = (operationId: string, summary: string, description: string) => ({
    config: { public: true },
    schema: {
      operationId,
      summary,
      description,
      tags: ['demos'],
      security: [],
      response: {
        200: chatAuthSuccessSchema,
        401: errorSchema,
        403: errorSchema,
        415: errorSchema,
        429: errorSchema,
      },
    },
  });

  const login = session(
    'demoLogin',
    'Opens a demo session; sets the demo session cookie',
    `multipart/form-data with \`username\` = \`${DEMO_USERNAME}\` and \`password\` = the demo's name.`,
  );
  app.post('/login', login, async (request, reply) => {
    assertOwnOrigin(request);
    if (!request.isMultipart())
      throw new HttpError('unsupported_media_type', 'Send the demo login as multipart/form-data');
    await limit(
      `demo-login:${clientKey(request)}`,
      config.demos.loginsPerHour,
      3600,
      'Too many demo logins from this address; try again later',
    );
    const fields: Record<string, string> = {};
    for await (const part of request.parts()) {
      if (part.type !== 'field') throw new HttpError('bad_request', 'Files are not accepted');
      if (part.valueTruncated || typeof part.value !== 'string') throw denied();
      if (part.fieldname === 'username' || part.fieldname === 'password') fields[part.fieldname] = part.value;
    }
    const demo = fields.password;
    if (!config.demos.enabled || fields.username !== DEMO_USERNAME || !isDemoName(demo)) throw denied();
    const { value, maxAgeSeconds } = await service.login(demo, clientKey(request));
    reply.setCookie(DEMO_SESSION_COOKIE, value, { ...cookieOptions, maxAge: maxAgeSeconds });
    return { success: true };
  });

  function denied() {
    return new HttpError('unauthorized', CREDENTIALS_SIGN_IN);
  }

  const logout = session('demoLogout', 'Ends the demo session', 'Clears the demo session cookie.');
  app.post('/logout', logout, async (request, reply) => {
    assertOwnOrigin(request);
    const value = request.cookies[DEMO_SESSION_COOKIE];
    if (value) await service.logout(value);
    reply.clearCookie(DEMO_SESSION_COOKIE, cookieOptions);
    return { success: true };
  });

  // The chat frame: the same build as /chainlit; it reads its API base from its own path.
  await app.register(frameFiles, {
    distDir: options.chatDistDir ?? defaultChatDist(),
    pageCache: 'no-store',
    notBuilt: (reply) =>
      reply
        .code(503)
        .type('text/html; charset=utf-8')
        .send('<!doctype html><title>Demo</title><p>The chat frame has not been built.</p>'),
  });

  // Demo chat turns and approvals cost model time: limited per client address.
  app.addHook('onRequest', async (request) => {
    if (request.method !== 'POST') return;
    const url = request.url.split('?')[0]!;
    if (url === '/demos/chat' || /^\/demos\/approvals\/[^/]+\/(approve|deny)$/.test(url)) {
      await limit(
        `demo-chat:${clientKey(request)}`,
        config.demos.chatTurnsPerMinute,
        60,
        'Too many demo messages from this address; wait a moment',
      );
    }
  });

  // The chat service's routes, authenticated by the demo cookie and running the demo tools only.
  await app.register(chatRoutes, {
    config,
    db,
    audit: options.audit,
    agents: options.agents,
    knowledge: options.knowledge,
    lifecycle: options.lifecycle,
    usage: options.usage,
    telemetry: options.telemetry,
    modelSelection: options.chat?.modelSelection,
    toolExecutor: service.executor,
    sessionStrategy: { cookieName: DEMO_SESSION_COOKIE, resolve: (value) => service.resolve(value) },
    suggestedPrompts: (userId, agentId) => service.suggestedPrompts(userId, agentId),
  });
};
