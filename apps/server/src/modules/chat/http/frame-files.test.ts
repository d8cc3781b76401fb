import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.ts';
import { registerErrorHandling } from '../../../http/errors.ts';
import { registerSecurityHeaders } from '../../../http/security-headers.ts';
import { frameFiles } from './frame-files.ts';

describe('chat frame static files', () => {
  let app: FastifyInstance;
  let dist: string;

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-chat-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.mkdirSync(path.join(dist, 'copilot'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>frame</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("frame")');
    fs.writeFileSync(path.join(dist, 'copilot', 'index.js'), 'window.mountChainlitWidget=()=>{}');
    fs.writeFileSync(path.join(dist, 'secret.txt'), 'not served');
    // As scripts/precompress.mjs leaves a build.
    const asset = path.join(dist, 'assets', 'index-abc123.js');
    fs.writeFileSync(`${asset}.br`, zlib.brotliCompressSync(fs.readFileSync(asset)));
    app = Fastify();
    registerErrorHandling(app);
    registerSecurityHeaders(
      app,
      loadConfig({ NODE_ENV: 'test', DATA_DIR: dist, PUBLIC_URL: 'http://cadre.test' }),
    );
    const notBuilt = (reply: FastifyReply) => reply.code(503).send('not built');
    await app.register(
      async (chat) => {
        chat.get('/session', async () => ({ ok: true }));
        await chat.register(frameFiles, {
          distDir: dist,
          pageCache: 'no-cache',
          copilot: true,
          fallback: true,
          notBuilt,
        });
      },
      { prefix: '/chainlit' },
    );
    await app.register(frameFiles, { distDir: dist, pageCache: 'no-store', notBuilt, prefix: '/demos' });
    await app.register(frameFiles, {
      distDir: path.join(dist, 'missing'),
      pageCache: 'no-store',
      notBuilt,
      prefix: '/unbuilt',
    });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('serves the frame page at /chainlit/, revalidated and embeddable by our own origin only', async () => {
    const page = await app.inject({ url: '/chainlit/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.body).toContain('<title>frame</title>');
  });

  it('serves hashed assets cached for good', async () => {
    const asset = await app.inject({ url: '/chainlit/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('text/javascript');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    expect(asset.body).toBe('console.log("frame")');
  });

  it('serves an asset precompressed at build, with the same type and caching', async () => {
    const asset = await app.inject({
      url: '/chainlit/assets/index-abc123.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['content-type']).toContain('text/javascript');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(asset.rawPayload).toString()).toBe('console.log("frame")');
    expect((await app.inject({ url: '/chainlit/assets/index-abc123.js.br' })).statusCode).toBe(404);
  });

  it('serves the copilot bundle to host pages of any origin, revalidated', async () => {
    const res = await app.inject({ url: '/chainlit/copilot/index.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/javascript');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.body).toContain('mountChainlitWidget');
  });

  it('falls back to the page for HTML requests only, and never serves files outside the build', async () => {
    const html = await app.inject({ url: '/chainlit/some/deep/link', headers: { accept: 'text/html' } });
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('<title>frame</title>');
    const api = await app.inject({ url: '/chainlit/unknown', headers: { accept: 'application/json' } });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: 'Not Found', code: 'not_found' });
    for (const url of [
      '/chainlit/assets/..%2Fsecret.txt',
      '/chainlit/assets/../secret.txt',
      '/chainlit/assets/%2e%2e/secret.txt',
      '/chainlit/secret.txt',
      '/chainlit/index.html',
      '/demos/secret.txt',
      '/demos/assets/..%2Fsecret.txt',
    ]) {
      const res = await app.inject({ url, headers: { accept: 'application/json' } });
      expect(res.body, url).not.toContain('not served');
    }
    expect((await app.inject({ url: '/chainlit/session' })).json()).toEqual({ ok: true });
  });

  it('serves the demos their page, never stored, and the same assets but no copilot bundle', async () => {
    const page = await app.inject({ url: '/demos/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    const asset = await app.inject({ url: '/demos/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await app.inject({ url: '/demos/copilot/index.js' })).statusCode).toBe(404);
  });

  it('answers for an unbuilt frame as the mount says', async () => {
    const res = await app.inject({ url: '/unbuilt/' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
