import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATION_NAMES, migrateToLatest } from '../src/db/migrate.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';

const HEALTH = '/backend/api/v1/public/health/healthcheck';

describe(`foundation on ${testDatabaseKind()}`, () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    await t?.close();
  });

  it('answers the health check with the database status', async () => {
    const res = await t.app.inject({ method: 'GET', url: HEALTH });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('answers 503 with database unavailable when the database cannot be reached', async () => {
    await t.db.close();
    const res = await t.app.inject({ method: 'GET', url: HEALTH });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'degraded', database: 'unavailable', code: 'db_unavailable' });
    // close() below closes the database again; both drivers accept that.
  });

  it('refuses a 1 MB JSON body with 413 before parsing it', async () => {
    const payload = JSON.stringify({ filler: 'x'.repeat(1_000_000) });
    const res = await t.app.inject({
      method: 'POST',
      url: HEALTH,
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: 'Request body is too large', code: 'payload_too_large' });
  });

  it('answers a body that is not JSON with a clear 400, and one of another type with 415', async () => {
    const post = (contentType: string, payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/backend/api/v1/public/beta-user-signin',
        headers: { 'content-type': contentType },
        payload,
      });
    const broken = await post('application/json', '{"name": ');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ detail: 'Request body is not valid JSON', code: 'bad_request' });
    const xml = await post('application/xml', '<password/>');
    expect(xml.statusCode).toBe(415);
    expect(xml.json()).toEqual({
      detail: 'Unsupported content type; send JSON',
      code: 'unsupported_media_type',
    });
    const missing = await post('application/json', '{}');
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({
      detail: [{ loc: ['body', 'password'] }],
      code: 'validation_failed',
    });
  });

  it('answers an unknown API route with a JSON 404', async () => {
    // Pages under /chainlit are the chat frame's own routes (its page answers browser navigations),
    // so a JSON 404 there is checked for API calls; /backend and /idp never answer with a page.
    const requests = [
      { url: '/backend/api/v1/nothing-here', accept: 'text/html' },
      { url: '/backend', accept: 'text/html' },
      { url: '/idp/x', accept: 'text/html' },
      { url: '/chainlit/unknown', accept: 'application/json' },
    ];
    for (const { url, accept } of requests) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept } });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toEqual({ detail: 'Not Found', code: 'not_found' });
    }
  });

  it('sends security headers on every response', async () => {
    for (const url of [HEALTH, '/backend/nope', '/runtime-config.json']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('serves the runtime configuration built from settings and the request origin', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/runtime-config.json',
      headers: { host: 'app.example:9000' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      analyticsTagId: '',
      heatmapTracking: { siteId: 0, version: 6 },
      isProduction: false,
      isDevelopment: false,
      disableAuth0: false,
      chainlitUrl: 'http://app.example:9000/chainlit',
      chainlitDemosUrl: 'http://app.example:9000/demos',
      apiUrl: 'http://app.example:9000/backend',
      auth0Domain: 'http://cadre.test/idp',
      auth0ClientId: 'cadre-web',
      auth0RedirectUri: 'http://cadre.test',
      auth0Audience: 'http://cadre.test/backend',
      auth0LogoutRedirect: 'http://cadre.test',
      feedbackUrl: '',
    });
  });

  it('serves the OpenAPI document with paths relative to /backend', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/backend/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.info.version).toBe('0.1.0');
    expect(doc.servers).toEqual([{ url: '/backend' }]);
    expect(Object.keys(doc.paths)).toContain('/api/v1/public/health/healthcheck');
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/backend'))).toBe(false);
  });

  it('records migrations once and re-running them changes nothing', async () => {
    const before = await t.db.kysely
      .selectFrom('schema_migrations' as never)
      .select(sql<string>`name`.as('name'))
      .execute();
    expect(before.map((r) => r.name)).toEqual(MIGRATION_NAMES);
    expect(await migrateToLatest(t.db)).toEqual([]);
  });

  it('keeps catalog services unique per provider key, and owned ones per owner', async () => {
    const now = new Date().toISOString();
    const service = (owner: number | null) => ({
      // Not a key the start-up catalog sync writes (builtin/calculator is synced at boot).
      provider: 'mcp',
      provider_key: 'foundation-test',
      owner_user_id: owner,
      name: 'Calculator',
      description: 'Arithmetic',
      auth_scheme: 'NO_AUTH',
      created_at: now,
      updated_at: now,
    });
    await t.db.kysely.insertInto('services').values(service(null)).execute();
    await expect(t.db.kysely.insertInto('services').values(service(null)).execute()).rejects.toThrow();

    const user = await t.db.kysely
      .insertInto('users')
      .values({ issuer: 'https://idp', subject: 'alice', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.kysely.insertInto('services').values(service(user.id)).execute();
    await expect(t.db.kysely.insertInto('services').values(service(user.id)).execute()).rejects.toThrow();
  });

  it('enforces foreign keys and cascades deletes from users', async () => {
    const now = new Date().toISOString();
    await expect(
      t.db.kysely
        .insertInto('agents')
        .values({ user_id: 999_999, name: 'x', description: 'y', created_at: now, updated_at: now })
        .execute(),
    ).rejects.toThrow();
    const user = await t.db.kysely
      .insertInto('users')
      .values({ issuer: 'https://idp', subject: 'bob', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .insertInto('agents')
      .values({ user_id: user.id, name: 'x', description: 'y', created_at: now, updated_at: now })
      .execute();
    await t.db.kysely.deleteFrom('users').where('id', '=', user.id).execute();
    const left = await t.db.kysely.selectFrom('agents').selectAll().execute();
    expect(left).toEqual([]);
  });
});
