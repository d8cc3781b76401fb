import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

  it('lets only the app itself frame its silent sign-in page', async () => {
    const page = await app.inject({ url: '/silent-sign-in.html' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>silent</title>');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});
