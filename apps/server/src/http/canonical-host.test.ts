import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { registerCanonicalHost } from './canonical-host.ts';
import { loggerOptions, OneLineRequestLog } from './logging.ts';

function serverFor(env: Record<string, string>) {
  const config = loadConfig({ NODE_ENV: 'test', ...env });
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(String(chunk));
      callback();
    },
  });
  const app = Fastify({ logger: loggerOptions(config, logStream), logController: new OneLineRequestLog() });
  registerCanonicalHost(app, config);
  app.get('/agents', async () => 'the web app');
  app.get('/backend/api/v1/thing', async () => ({ ok: true }));
  app.get('/backend/api/v1/public/health/healthcheck', async () => ({ status: 'ok' }));
  return { app, logs };
}

const page = { accept: 'text/html,application/xhtml+xml' };

describe('pages on a host other than PUBLIC_URL', () => {
  let app: ReturnType<typeof serverFor>['app'];
  afterEach(async () => app?.close());

  it('redirects another name of this machine to PUBLIC_URL, keeping the path and query', async () => {
    ({ app } = serverFor({ PUBLIC_URL: 'http://cadre.test:8080' }));
    const res = await app.inject({ url: '/agents?tab=2', headers: { ...page, host: '127.0.0.1:8080' } });
    expect(res.statusCode).toBe(307);
    expect(res.headers.location).toBe('http://cadre.test:8080/agents?tab=2');
  });

  it('answers an unknown host with a page that names the URL to open', async () => {
    ({ app } = serverFor({ PUBLIC_URL: 'https://cadre.example.com' }));
    const res = await app.inject({ url: '/agents', headers: { ...page, host: 'elsewhere.example' } });
    expect(res.statusCode).toBe(421);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('Open Cadre at https://cadre.example.com');
    expect(res.body).toContain('href="https://cadre.example.com"');
  });

  it('does not redirect a visitor from another computer to a localhost PUBLIC_URL they cannot reach', async () => {
    ({ app } = serverFor({ PORT: '8080' }));
    const res = await app.inject({
      url: '/agents',
      remoteAddress: '192.0.2.7',
      headers: { ...page, host: '127.0.0.1:8080' },
    });
    expect(res.statusCode).toBe(421);
    expect(res.body).toContain('PUBLIC_URL');
    expect(res.body).toContain('http://127.0.0.1:8080');
  });

  it('serves PUBLIC_URL itself, the API on any host, and everything when sign-in is off', async () => {
    ({ app } = serverFor({ PUBLIC_URL: 'http://cadre.test' }));
    expect((await app.inject({ url: '/agents', headers: { ...page, host: 'cadre.test' } })).statusCode).toBe(
      200,
    );
    const api = await app.inject({ url: '/backend/api/v1/thing', headers: { ...page, host: 'localhost' } });
    expect(api.statusCode).toBe(200);
    const json = await app.inject({ url: '/agents', headers: { host: 'localhost' } });
    expect(json.statusCode).toBe(200);
    await app.close();
    ({ app } = serverFor({ PUBLIC_URL: 'http://cadre.test', DISABLE_AUTH: 'true' }));
    expect((await app.inject({ url: '/agents', headers: { ...page, host: 'localhost' } })).statusCode).toBe(
      200,
    );
  });
});

describe('the request log', () => {
  let app: ReturnType<typeof serverFor>['app'];
  afterEach(async () => app?.close());

  it('writes one line per request with method, path, status and milliseconds, without the query', async () => {
    const server = serverFor({ PUBLIC_URL: 'http://cadre.test', LOG_LEVEL: 'info' });
    app = server.app;
    await app.inject({ url: '/backend/api/v1/thing?code=secret-oauth-code' });
    await app.inject({ url: '/backend/api/v1/public/health/healthcheck' });
    const lines = server.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      method: 'GET',
      path: '/backend/api/v1/thing',
      statusCode: 200,
      msg: expect.stringMatching(/^GET \/backend\/api\/v1\/thing 200 \d+ ms$/),
    });
    expect(server.logs.join('')).not.toContain('secret-oauth-code');
  });
});
