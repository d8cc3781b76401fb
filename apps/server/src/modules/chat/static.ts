import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Where the built chat frame is (apps/chat/dist): next to the bundled server (dist/main.js) or, when
 * running from source, four levels up from this file.
 */
export function defaultChatDist(): string {
  const candidates = [
    fileURLToPath(new URL('../../chat/dist', import.meta.url)),
    fileURLToPath(new URL('../../../../chat/dist', import.meta.url)),
  ];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'index.html'))) ?? candidates[0]!;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};
const contentTypeOf = (file: string) => CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';

/**
 * Serves the chat frame inside the chat plugin (so these responses carry the frame's CSP with
 * `frame-ancestors 'self'`): `/chainlit/` (index.html), its hashed assets under `/chainlit/assets/`,
 * the copilot bundle at `/chainlit/copilot/index.js`, and a single-page fallback — a GET under
 * /chainlit that asks for HTML and matches no API route gets index.html; anything else unknown is
 * a JSON 404. Only files that exist when the server starts are served (no path from the request
 * ever reaches the file system). Registered from the chat plugin: `await registerChatStatic(app)`.
 */
export async function registerChatStatic(app: FastifyInstance, distDir: string = defaultChatDist()) {
  const indexFile = path.join(distDir, 'index.html');
  const copilotFile = path.join(distDir, 'copilot', 'index.js');
  const assetsDir = path.join(distDir, 'assets');
  const hasFrame = fs.existsSync(indexFile);
  if (!hasFrame) app.log.warn({ distDir }, 'chat frame is not built; /chainlit serves the API only');
  const assets = new Set(
    fs.existsSync(assetsDir)
      ? fs.readdirSync(assetsDir).filter((name) => fs.statSync(path.join(assetsDir, name)).isFile())
      : [],
  );
  const config = { public: true, chatAuth: 'none' as const };

  const send = (reply: FastifyReply, file: string, cache: string) =>
    reply
      .header('content-type', contentTypeOf(file))
      .header('cache-control', cache)
      .header('x-content-type-options', 'nosniff')
      .send(fs.createReadStream(file));
  const notFound = (reply: FastifyReply) => reply.code(404).send({ detail: 'Not Found' });

  app.get('/', { config, schema: { hide: true } }, (_request, reply) =>
    hasFrame ? send(reply, indexFile, 'no-cache') : notFound(reply),
  );

  app.get<{ Params: { file: string } }>(
    '/assets/:file',
    { config, schema: { hide: true } },
    (request, reply) =>
      assets.has(request.params.file)
        ? // Vite puts content hashes in asset names, so they never change under the same URL.
          send(reply, path.join(assetsDir, request.params.file), 'public, max-age=31536000, immutable')
        : notFound(reply),
  );

  app.get('/copilot/index.js', { config, schema: { hide: true } }, (_request, reply) => {
    if (!fs.existsSync(copilotFile)) return notFound(reply);
    // Host pages load the widget from another origin: allow that, and revalidate on each load.
    return send(reply.header('cross-origin-resource-policy', 'cross-origin'), copilotFile, 'no-cache');
  });

  app.get('/*', { config, schema: { hide: true } }, (request, reply) => {
    const wantsPage = (request.headers.accept ?? '').includes('text/html');
    return hasFrame && wantsPage ? send(reply, indexFile, 'no-cache') : notFound(reply);
  });
}
