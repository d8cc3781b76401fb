import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerChatStatic } from './static.ts';

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
    app = Fastify();
    await app.register(
      async (chat) => {
        chat.get('/session', async () => ({ ok: true }));
        await registerChatStatic(chat, dist);
      },
      { prefix: '/chainlit' },
    );
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('serves the frame page at /chainlit/ and hashed assets', async () => {
    const page = await app.inject({ url: '/chainlit/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<title>frame</title>');
    const asset = await app.inject({ url: '/chainlit/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('text/javascript');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the copilot bundle', async () => {
    const res = await app.inject({ url: '/chainlit/copilot/index.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/javascript');
    expect(res.body).toContain('mountChainlitWidget');
  });

  it('falls back to the page for HTML requests only, and never serves files outside the build', async () => {
    const html = await app.inject({ url: '/chainlit/some/deep/link', headers: { accept: 'text/html' } });
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('<title>frame</title>');
    const api = await app.inject({ url: '/chainlit/unknown', headers: { accept: 'application/json' } });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: 'Not Found' });
    for (const url of [
      '/chainlit/assets/..%2Fsecret.txt',
      '/chainlit/assets/../secret.txt',
      '/chainlit/secret.txt',
    ]) {
      const res = await app.inject({ url, headers: { accept: 'application/json' } });
      expect(res.body).not.toContain('not served');
    }
    expect((await app.inject({ url: '/chainlit/session' })).json()).toEqual({ ok: true });
  });
});
