import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RUNTIME_CONFIG_PATH, SILENT_SIGN_IN_PATH, type RuntimeConfig } from '@cadre/contract';
import { CHAT_FRAME_CSP } from '../../http/security-headers.ts';
import { notFound } from '../../http/errors.ts';
import { PRECOMPRESSED_FILES, servedFile } from '../../http/compression.ts';
import type { Config } from '../../config.ts';

/** Path prefixes owned by server modules; anything under them that no route matches is a JSON 404. */
const MODULE_PREFIXES = ['/backend', '/chainlit', '/demos', '/idp'];

/** Builds the web app's runtime configuration (spec section 3) for the origin of this request. */
export function buildRuntimeConfig(config: Config, origin: string): RuntimeConfig {
  return {
    analyticsTagId: config.web.analyticsTagId,
    heatmapTracking: { siteId: config.web.heatmap.siteId, version: config.web.heatmap.version },
    isProduction: config.env === 'production',
    isDevelopment: config.env === 'development',
    disableAuth0: config.auth.disabled,
    chainlitUrl: config.web.chainlitUrl ?? `${origin}/chainlit`,
    chainlitDemosUrl: config.web.chainlitDemosUrl ?? `${origin}/demos`,
    apiUrl: config.web.apiUrl ?? `${origin}/backend`,
    auth0Domain: config.auth.issuer,
    auth0ClientId: config.auth.clientId,
    auth0RedirectUri: config.auth.redirectUri,
    auth0Audience: config.auth.audience,
    auth0LogoutRedirect: config.auth.logoutRedirectUri,
    feedbackUrl: config.web.feedbackUrl,
  };
}

const requestOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/**
 * Serves the built web app at `/` with a single-page-app fallback, and its runtime configuration.
 * When the web app has not been built (some test runs), only the configuration is served.
 */
export async function registerWebApp(app: FastifyInstance, config: Config, webDistDir: string) {
  app.get(
    RUNTIME_CONFIG_PATH,
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return buildRuntimeConfig(config, requestOrigin(request));
    },
  );

  const indexFile = path.join(webDistDir, 'index.html');
  const hasWebApp = fs.existsSync(indexFile);
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      ...PRECOMPRESSED_FILES,
      setHeaders(reply, sentPath) {
        const filePath = servedFile(sentPath);
        // Vite puts content hashes in asset names, so they never change under the same URL.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The silent sign-in page runs in a hidden frame of the web app itself: our origin only.
        if (`/${path.basename(filePath)}` === SILENT_SIGN_IN_PATH) {
          reply.header('content-security-policy', CHAT_FRAME_CSP);
          reply.header('x-frame-options', 'SAMEORIGIN');
        }
      },
    });
    app.get('/', { config: { public: true }, schema: { hide: true } }, (_request, reply) =>
      reply.header('cache-control', 'no-cache').sendFile('index.html'),
    );
  } else {
    app.log.warn({ webDistDir }, 'web app is not built; serving the API only');
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isModulePath = MODULE_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`));
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      (request.headers.accept ?? '').includes('text/html');
    if (hasWebApp && wantsPage && !isModulePath) {
      // The web app's router decides what an unknown path shows (its 404 screen).
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.send(notFound());
  });
}
