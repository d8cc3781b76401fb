import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import type { JWTVerifyGetKey } from 'jose';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { Lifecycle } from './kernel.ts';
import { createRemoteKeySource, registerAuth } from './http/auth.ts';
import { registerCanonicalHost } from './http/canonical-host.ts';
import { registerCompression } from './http/compression.ts';
import { frameworkErrors, registerErrorHandling } from './http/errors.ts';
import { refuseNulCharacters } from './http/nul-guard.ts';
import { idempotencyUserData } from './http/idempotency.ts';
import { createLifecycle, registerLifecycle } from './http/lifecycle.ts';
import { loggerOptions, OneLineRequestLog } from './http/logging.ts';
import { scheduleMaintenance } from './maintenance.ts';
import { API_PREFIX, registerOpenApi, openApiDocument } from './http/openapi.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import {
  createIdentity,
  identityRoutes,
  endAccountSessions,
  identityUserData,
  type IdentityOptions,
} from './modules/identity/index.ts';
import {
  chatRoutes,
  chatUserData,
  createToolsExecutor,
  endChatSessionsOf,
  runRegistryFor,
  type ChatAppDeps,
  type ChatModuleOptions,
} from './modules/chat/index.ts';
import { DEMO_ISSUER, demosUserData } from './modules/demos/index.ts';
import { demoRoutes, type DemoModuleOptions } from './modules/demos/routes.ts';
import { registerTools, toolsUserData } from './modules/tools/index.ts';
import {
  providerTriggerStore,
  registerTriggers,
  triggerRoutes,
  triggersUserData,
  type TriggerOptions,
  type TriggerWorker,
} from './modules/triggers/index.ts';
import {
  accessCodeAdminRoutes,
  accessCodeRoutes,
  createAccessCodesAdmin,
  createAccessGate,
  generatedAccessCode,
} from './modules/access-code/index.ts';
import { agentApiRoutes } from './modules/agent-api/index.ts';
import { agentsRoutes, agentsUserData, createAgentsService } from './modules/agents/index.ts';
import {
  agentArchives,
  createEmbedder,
  createKnowledgeService,
  createS3Store,
  knowledgeHistory,
  knowledgeRoutes,
  knowledgeUserData,
} from './modules/knowledge/index.ts';
import {
  apiKeysRoutes,
  apiKeysUserData,
  createApiKeysService,
  type ApiKeyOptions,
} from './modules/api-keys/index.ts';
import { auditUserData, createAuditLog } from './modules/audit/index.ts';
import { authRoutes, backchannelLogoutRoutes, copilotTokenVerifier } from './modules/auth/index.ts';
import { modelsRoutes } from './modules/models/index.ts';
import { publicRoutes } from './modules/public/index.ts';
import {
  createConnectionStore,
  registerServices,
  servicesRoutes,
  servicesUserData,
} from './modules/services/index.ts';
import {
  adminRoutes,
  createGroupsAdmin,
  createPeopleAdmin,
  createUsersService,
  usersRoutes,
} from './modules/users/index.ts';
import { createUsageService, usageRoutes, usageUserData } from './modules/usage/index.ts';
import { registerWebApp } from './modules/web/index.ts';
import { createTelemetry, registerHttpTelemetry, registerMetricsRoute } from './telemetry/index.ts';
import { createVault, loadOrCreateKeyFile } from './security/vault.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs stored trigger events; tests drain it instead of waiting for its poll. */
    triggers: TriggerWorker;
    /** The access code generated when BETA_ACCESS_CODES is empty (for the start-up log). */
    generatedAccessCode(): Promise<string | undefined>;
  }
}

export interface AppOptions {
  config: Config;
  db: Db;
  /** Where the built web app is; defaults to apps/web/dist next to this package. */
  webDistDir?: string;
  /** Overrides the pino destination (tests capture log lines to check redaction). */
  logStream?: NodeJS.WritableStream;
  /** The chat service's collaborators (token verifiers, tools layer); see modules/chat/plugin.ts. */
  chat?: ChatModuleOptions;
  /** The demos' collaborators (clock, model); see modules/demos/routes.ts. */
  demos?: DemoModuleOptions;
  /** The process's shutdown state; `start.ts` passes the one it drains on SIGTERM. */
  lifecycle?: Lifecycle;
  /** The built-in identity provider's clock and wait; see modules/identity/service.ts. */
  identity?: IdentityOptions;
  /** The trigger calls' rate-limit clock; see modules/triggers/routes.ts. */
  triggers?: TriggerOptions;
  /** The API keys' clock (expiry, last use); see modules/api-keys/service.ts. */
  apiKeys?: ApiKeyOptions;
  /**
   * Where access-token signing keys come from. Defaults to the configured issuer's JWKS (found
   * through its discovery document); the built-in identity provider passes its own keys.
   */
  authKeys?: JWTVerifyGetKey;
}

const notZod = (): never => {
  throw new Error("A route schema reached Fastify without zod's compilers");
};

const defaultWebDist = () => fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * Builds the whole server without listening: `start.ts` listens, tests call `inject`. One process
 * serves the web app at `/`, the API at `/backend`, and the chat (`/chainlit`), demo (`/demos`) and
 * identity (`/idp`) modules.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const secret = config.secretsKey ?? loadOrCreateKeyFile(config.dataDir);
  const vault = createVault(secret);
  const audit = createAuditLog(db);
  const users = createUsersService(db, audit, {
    secret,
    signIn: {
      adminEmails: config.auth.adminEmails,
      roleClaim: config.auth.roleClaim,
      groupsClaim: config.auth.groupsClaim,
    },
    hiddenIssuers: [DEMO_ISSUER],
  });
  const agents = createAgentsService(db, audit, {
    offeredModels: config.llm.models.map((m) => m.id),
    knowledgeHistory,
  });
  const bucket = config.knowledge.bucket && createS3Store(config.knowledge.bucket);
  const knowledge = createKnowledgeService({
    db,
    audit,
    agents,
    settings: config.knowledge,
    embedder: config.knowledge.embedding && createEmbedder(config.knowledge.embedding),
    store: bucket,
    // Called only while serving, once `app` below exists.
    log: { warn: (details, message) => app.log.warn(details, message) },
  });
  // A deleted agent's or user's files leave their bucket objects due for deletion (a trigger).
  agents.afterAgentDelete.push(knowledge.bytes.sweep);
  const lifecycle = options.lifecycle ?? createLifecycle();
  const usage = createUsageService(db, { config });
  const { telemetry, metrics } = await createTelemetry(config);
  // What every chat service takes (the chat, the demos' chat, the agent API, the trigger worker).
  const chatDeps = {
    config,
    db,
    audit,
    agents,
    knowledge,
    usage: usage.ledger,
    lifecycle,
    telemetry,
  } satisfies ChatAppDeps;
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    logController: new OneLineRequestLog(),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // Fastify's own answers would not carry the API's error code: a URL it cannot route is answered
    // by http/errors.ts; a request that still reaches a closing server (on a kept-alive connection,
    // before Node stops reading them) is served as any other, as during draining, instead of
    // Fastify's 503 body.
    return503OnClosing: false,
    frameworkErrors,
    // R11: a request must arrive whole within HTTP_REQUEST_TIMEOUT_MS (a trickled body is cut off
    // with 408), a socket idle for HTTP_IDLE_TIMEOUT_MS is closed (longer than any silent wait of
    // a chat stream: a model's first byte or a tool call), kept-alive sockets after their timeout.
    requestTimeout: config.http.requestTimeoutMs,
    connectionTimeout: config.http.idleTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    genReqId: () => crypto.randomUUID(),
    // Every route's schemas are zod's (the compilers set below, before any route): with these in
    // place of its defaults, Fastify does not load Ajv and fast-json-stringify (some 7 MB allocated
    // at start). They are never called; if they were, a schema would have missed zod's compilers.
    schemaController: { compilersFactory: { buildValidator: notZod, buildSerializer: notZod } },
  });
  app.server.headersTimeout = config.http.headersTimeoutMs;
  // Node checks those two deadlines only on this interval (30 s by default), read when the server
  // starts listening (Node's documented option, missing from its types), so a request is cut up to
  // one interval after its deadline: at 5 s a trickled body held a connection 10-15 s against the
  // documented 10 s. A check every half second (a tenth of a shorter allowance) keeps the cut within
  // half a second of the setting; each check is one walk over the open connections.
  (app.server as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = Math.min(
    500,
    Math.max(100, config.http.headersTimeoutMs / 10),
  );
  // First of all hooks: the request's span is current for everything the request does. With
  // tracing and metrics both off, requests pay nothing for them.
  if (telemetry.active) registerHttpTelemetry(app, metrics);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  refuseNulCharacters(app);
  registerLifecycle(app, lifecycle);
  db.onConnectionError((err) =>
    app.log.warn({ err }, 'database connection lost; it is replaced on the next query'),
  );
  registerSecurityHeaders(app, config);
  registerCanonicalHost(app, config);
  // Before any route: it attaches itself to each route as the route is added.
  await registerCompression(app);
  registerOpenApi(app);
  const tools = await registerTools(
    app,
    { config, db, vault, telemetry },
    { connections: createConnectionStore(db), onTrigger: providerTriggerStore({ db, agents }) },
  );
  const services = registerServices(app, { config, db, vault, audit }, tools);
  // DELETE /users/me revokes the user's connections at their providers before deleting rows.
  users.beforeUserDelete.push(async (user) => {
    await services.disconnectAllForUser(user.id);
  });
  const toolExecutor = createToolsExecutor(tools, agents, db);
  // Chat runs held in the database: the chat, the demos' chat and the trigger worker share them.
  const runs = runRegistryFor({
    db,
    lifecycle,
    log: app.log,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    metrics,
  });
  metrics.watch({ pool: () => db.poolStats(), runningRuns: () => runs.localCount() });
  app.addHook('onClose', () => runs.close());
  // A user being deleted has their runs stopped wherever they run, before their rows go.
  users.beforeUserDelete.push((user) => runs.stopUser(user.id));
  // A disabled account's chat sessions, copilot tokens and runs end on every instance (its access
  // tokens and API keys are refused by the token check itself).
  users.onDisable.push(
    (user) => endChatSessionsOf(db, { userId: user.id }),
    (user) => runs.stopUser(user.id),
  );

  // The built-in OpenID Connect provider at /idp, unless another issuer is configured.
  // The beta access-code gate: beta-user-signin issues its proof; sign-up and the API ask for it.
  const gate = await createAccessGate({ config, db, vault, audit });
  const identity = config.auth.builtInIssuer
    ? await createIdentity({ config, db, vault }, gate, options.identity)
    : undefined;

  // What each module keeps about a user, for export and deletion (P1). Deleted in this order, so
  // rows that refer to another module's rows go before them.
  users.dataOwners.push(
    chatUserData(db),
    triggersUserData(db),
    demosUserData(db),
    knowledgeUserData(db, knowledge.bytes.sweep),
    agentsUserData(db),
    servicesUserData(db),
    toolsUserData(db),
    ...(identity ? [identityUserData(db, config.auth.issuer)] : []),
    apiKeysUserData(db),
    usageUserData(usage),
    idempotencyUserData(),
    auditUserData(db),
  );
  if (identity) {
    // Signing out at the provider ends the chat sessions opened under that provider session, and
    // the copilot tokens of that account (A4).
    identity.onSignOut.push(async (subject, sid) => {
      const user = await users.find({ issuer: config.auth.issuer, subject });
      if (user) await endChatSessionsOf(db, { userId: user.id, sid });
    });
    await app.register(identityRoutes, { config, users, identity });
    // Disabling an account of the built-in provider also ends its provider sessions and refresh
    // tokens, so it cannot sign in silently either.
    users.onDisable.push(async (user) => {
      if (user.issuer === config.auth.issuer) await endAccountSessions(db.kysely, user.subject);
    });
  }
  // Before any route: the token check attaches itself to every private route under /backend.
  // `apiTokens.userForToken` is what the chat module's `verifyAccessToken` option wants.
  const apiKeys = createApiKeysService({ config, db, audit, users, agents }, options.apiKeys);
  // The issuer's keys: access tokens and back-channel logout tokens are verified with them.
  const authKeys = options.authKeys ?? identity?.localKeySet() ?? createRemoteKeySource(config.auth.issuer);
  const apiTokens = registerAuth(app, { config, users, gate, apiKeys, keys: authKeys });
  app.decorate('apiTokens', apiTokens);
  // Prometheus's scrape, with its own bearer token; no route at all unless one is configured.
  if (config.telemetry.metricsScrapeToken)
    registerMetricsRoute(app, metrics, config.telemetry.metricsScrapeToken);

  await app.register(
    async (api) => {
      // Cookies under /backend: the OAuth browser binding; the API itself takes bearer tokens only.
      await api.register(cookie);
      await api.register(publicRoutes, { db, lifecycle });
      await api.register(accessCodeRoutes, { gate });
      await api.register(usersRoutes, { users });
      await api.register(adminRoutes, {
        people: createPeopleAdmin({ db, audit, users, usage, hiddenIssuers: [DEMO_ISSUER] }),
        groups: createGroupsAdmin({ db, audit, hiddenIssuers: [DEMO_ISSUER] }),
      });
      await api.register(accessCodeAdminRoutes, {
        codes: createAccessCodesAdmin({ config, db, vault, audit }),
      });
      await api.register(agentsRoutes, {
        agents,
        db,
        connectedServices: async (userId) =>
          new Set((await services.listActiveServices(userId)).map((s) => s.id)),
        archives: agentArchives(knowledge),
        connectNoAuthService: async (userId, serviceId) => {
          await services.registerNoAuthService(serviceId, userId);
        },
        readyAssistant: config.agents.readyAssistant,
      });
      await api.register(knowledgeRoutes, { db, knowledge, settings: config.knowledge });
      await api.register(modelsRoutes, { llm: config.llm });
      await api.register(usageRoutes, { usage, agents });
      await api.register(triggerRoutes, {
        config,
        db,
        vault,
        audit,
        agents,
        usage: usage.ledger,
        owners: { isActive: async (userId) => (await users.byId(userId)) !== undefined },
        ...options.triggers,
      });
      await api.register(servicesRoutes, { config, db, services, tools });
      await api.register(authRoutes, { config, agents });
      await api.register(backchannelLogoutRoutes, { config, db, users, keys: authKeys });
      await api.register(apiKeysRoutes, { apiKeys, db, vault });
      // Agents reached from code: the OpenAI-compatible API and an MCP server per agent.
      await api.register(agentApiRoutes, {
        deps: { ...chatDeps, anyKeyAllowsOrigin: apiKeys.anyAllowsOrigin },
        executor: options.chat?.toolExecutor ?? toolExecutor,
        modelSelection: options.chat?.modelSelection,
      });
      api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
        openApiDocument(app),
      );
    },
    { prefix: API_PREFIX },
  );

  // The chat service at /chainlit authenticates with its own session cookie or a copilot token.
  await app.register(chatRoutes, {
    ...chatDeps,
    verifyAccessToken: apiTokens.userForToken,
    verifyCopilotToken: copilotTokenVerifier(config),
    toolExecutor,
    ...options.chat,
    prefix: '/chainlit',
  });

  // The public demos at /demos: the same chat service, signed in by the demo login only.
  await app.register(demoRoutes, { ...chatDeps, users, ...options.demos, prefix: '/demos' });

  // Stored trigger events run their agent unattended.
  app.decorate(
    'triggers',
    registerTriggers(app, chatDeps, options.chat?.toolExecutor ?? toolExecutor, options.chat?.modelSelection),
  );

  app.decorate('generatedAccessCode', () => generatedAccessCode({ config, db, vault }));
  scheduleMaintenance(app, db, [knowledge.bytes.sweep]);
  if (bucket) app.addHook('onClose', async () => bucket.close());

  await registerWebApp(app, config, options.webDistDir ?? defaultWebDist());
  return app;
}
