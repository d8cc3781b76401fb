import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { registerErrorHandling } from './http/errors.ts';
import { loggerOptions } from './http/logging.ts';
import { API_PREFIX, registerOpenApi, openApiDocument } from './http/openapi.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { createIdentity, identityRoutes } from './modules/identity/index.ts';
import { chatRoutes, type ChatModuleOptions } from './modules/chat/routes.ts';
import { demoRoutes, type DemoModuleOptions } from './modules/demos/routes.ts';
import { publicRoutes } from './modules/public/routes.ts';
import { registerTools } from './modules/tools/plugin.ts';
import { registerWebApp } from './modules/web/routes.ts';
import { createVault, loadOrCreateKeyFile, type Vault } from './security/vault.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Marks a route that answers without a token; everything else requires one. */
    public?: boolean;
  }
}

export interface AppOptions {
  config: Config;
  db: Db;
  /** Where the built web app is; defaults to apps/web/dist next to this package. */
  webDistDir?: string;
  /** Overrides the pino destination (tests capture log lines to check redaction). */
  logStream?: NodeJS.WritableStream;
  /** The chat service's collaborators (token verifiers, tools layer); see modules/chat/routes.ts. */
  chat?: ChatModuleOptions;
  /** The demos' collaborators (clock, model); see modules/demos/routes.ts. */
  demos?: DemoModuleOptions;
}

/** What every module receives: settings, the database and the secrets vault. */
export interface AppDeps {
  config: Config;
  db: Db;
  vault: Vault;
}

const defaultWebDist = () => fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * Builds the whole server without listening: `main.ts` listens, tests call `inject`. One process
 * serves the web app at `/`, the API at `/backend`, and the chat (`/chainlit`), demo (`/demos`) and
 * identity (`/idp`) modules.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const vault = createVault(config.secretsKey ?? loadOrCreateKeyFile(config.dataDir));
  const deps: AppDeps = { config, db, vault };
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    genReqId: () => crypto.randomUUID(),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  await registerSecurityHeaders(app, config);
  await registerOpenApi(app);
  await registerTools(app, deps);

  // The built-in OpenID Connect provider at /idp, unless another issuer is configured.
  const identity = config.auth.builtInIssuer ? await createIdentity(deps) : undefined;
  if (identity) await app.register(identityRoutes, { ...deps, identity });

  await app.register(
    async (api) => {
      await api.register(publicRoutes, deps);
      api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
        openApiDocument(app),
      );
    },
    { prefix: API_PREFIX },
  );

  // The chat service at /chainlit authenticates with its own session cookie or a copilot token.
  await app.register(chatRoutes, { ...deps, ...options.chat, prefix: '/chainlit' });

  // The public demos at /demos: the same chat service, signed in by the demo login only.
  await app.register(demoRoutes, { ...deps, ...options.demos, prefix: '/demos' });

  await registerWebApp(app, config, options.webDistDir ?? defaultWebDist());
  return app;
}
