import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { registerSecurityHeaders } from '../../http/security-headers.ts';
import { registerWebApp } from './routes.ts';

describe('web app files', () => {
  let app: FastifyInstance;
  let dist: string;

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-web-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>app</title>');
    fs.writeFileSync(path.join(dist, 'silent-sign-in.html'), '<!doctype html><title>silent</title>');
    // As scripts/precompress.mjs leaves a build.
    for (const file of ['index.html', 'silent-sign-in.html']) {
      const bytes = fs.readFileSync(path.join(dist, file));
      fs.writeFileSync(path.join(dist, `${file}.br`), zlib.brotliCompressSync(bytes));
      fs.writeFileSync(path.join(dist, `${file}.gz`), zlib.gzipSync(bytes));
    }
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dist, PUBLIC_URL: 'http://cadre.test' });
    app = Fastify();
    registerSecurityHeaders(app, config);
    await registerWebApp(app, config, dist);
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('lets no page frame the app', async () => {
    const page = await app.inject({ url: '/' });
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  it('lets only the app itself frame its silent sign-in page, compressed or not', async () => {
    for (const encoding of [undefined, 'br', 'gzip']) {
      const page = await app.inject({
        url: '/silent-sign-in.html',
        headers: encoding ? { 'accept-encoding': encoding } : {},
      });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-encoding']).toBe(encoding);
      const body = encoding === 'br' ? zlib.brotliDecompressSync(page.rawPayload) : page.rawPayload;
      expect((encoding === 'gzip' ? zlib.gunzipSync(body) : body).toString()).toContain(
        '<title>silent</title>',
      );
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });

  it('sends the build’s precompressed files, which have no URL of their own', async () => {
    const page = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, br' } });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(page.rawPayload).toString()).toBe('<!doctype html><title>app</title>');
    expect((await app.inject({ url: '/index.html.br' })).statusCode).toBe(404);
  });
});
