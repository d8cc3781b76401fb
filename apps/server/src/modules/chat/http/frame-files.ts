import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { CHAT_FRAME_CSP } from '../../../http/security-headers.ts';
import { notFound } from '../../../http/errors.ts';
import { PRECOMPRESSED_FILES } from '../../../http/compression.ts';

/**
 * Where the built chat frame is (apps/chat/dist): next to the bundled server (dist/main.js) or, when
 * running from source, five levels up from this file.
 */
export function defaultChatDist(): string {
  const candidates = [
    fileURLToPath(new URL('../../chat/dist', import.meta.url)),
    fileURLToPath(new URL('../../../../../chat/dist', import.meta.url)),
  ];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'index.html'))) ?? candidates[0]!;
}

// Vite puts content hashes in asset names, so they never change under the same URL.
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * JavaScript as RFC 9239 names it: send's MIME table still says application/javascript, and
 * @fastify/static sets that type from it after `setHeaders` for a precompressed file.
 */
const JAVASCRIPT = 'text/javascript; charset=utf-8';

export interface FrameFilesOptions {
  distDir: string;
  /** Cache-Control of the frame's page: revalidated (`no-cache`) or never stored (`no-store`). */
  pageCache: 'no-cache' | 'no-store';
  /** Also serve the copilot bundle at `copilot/index.js`, loadable by host pages of any origin. */
  copilot?: boolean;
  /** Any other GET that asks for HTML gets the page (the frame's own deep links); the rest a JSON 404. */
  fallback?: boolean;
  /** The answer for the page when the frame has not been built. */
  notBuilt: (reply: FastifyReply) => FastifyReply;
}

/**
 * The chat frame's files, through @fastify/static: the page at `/` (with the frame's CSP, which lets
 * our own origin embed it), its hashed assets under `/assets/` and, on /chainlit, the copilot
 * bundle. Only files that exist at start are routed (listed once, then served by @fastify/static's
 * path checks); nothing outside the build is reachable.
 */
export const frameFiles: FastifyPluginAsync<FrameFilesOptions> = async (app, options) => {
  const { distDir } = options;
  const assetsDir = path.join(distDir, 'assets');
  const copilotDir = path.join(distDir, 'copilot');
  const built = fs.existsSync(path.join(distDir, 'index.html'));
  const config = { public: true };
  if (!built) app.log.warn({ distDir }, 'the chat frame is not built; it is not served');
  // This plugin's own routes only (it is not wrapped with fastify-plugin).
  app.addHook('onSend', async (_request, reply, payload) => {
    if (String(reply.getHeader('content-type')).startsWith('application/javascript'))
      reply.header('content-type', JAVASCRIPT);
    return payload;
  });

  if (built) {
    // Also decorates `reply.sendFile` for the page. send's own Cache-Control is off: ours is set per file.
    await app.register(fastifyStatic, {
      root: assetsDir,
      prefix: '/assets/',
      wildcard: false,
      index: false,
      cacheControl: false,
      ...PRECOMPRESSED_FILES,
      setHeaders: (reply, filePath) => {
        if (path.dirname(filePath) === assetsDir) reply.header('cache-control', IMMUTABLE);
      },
    });
  }
  if (built && options.copilot && fs.existsSync(copilotDir)) {
    await app.register(fastifyStatic, {
      root: copilotDir,
      prefix: '/copilot/',
      wildcard: false,
      index: false,
      cacheControl: false,
      decorateReply: false,
      ...PRECOMPRESSED_FILES,
      // Host pages load the widget from another origin: allow that, and revalidate on each load.
      setHeaders: (reply) => {
        reply.header('cache-control', 'no-cache').header('cross-origin-resource-policy', 'cross-origin');
      },
    });
  }

  const page = (reply: FastifyReply) => {
    reply
      .header('content-security-policy', CHAT_FRAME_CSP)
      .header('x-frame-options', 'SAMEORIGIN')
      .header('cache-control', options.pageCache);
    return built ? reply.sendFile('index.html', distDir) : options.notBuilt(reply);
  };
  app.get('/', { config, schema: { hide: true } }, (_request, reply) => page(reply));
  if (options.fallback) {
    app.get('/*', { config, schema: { hide: true } }, (request, reply) => {
      const wantsPage = (request.headers.accept ?? '').includes('text/html');
      return built && wantsPage ? page(reply) : reply.send(notFound());
    });
  }
};
