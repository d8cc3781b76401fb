import { AGENT_LIMITS, errorCodeOf, statusOf } from '@cadre/contract';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/http/openapi.ts';
import { seedService, tableCounts } from './support/seed.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

/**
 * An error answer carries a code of the closed list (in OpenAI's `error.code` on those routes),
 * whose status is the answer's (docs/api.md, "Errors").
 */
function expectErrorCode(res: LightMyRequestResponse, label: string) {
  if (res.statusCode < 400) return;
  let body: unknown;
  try {
    body = res.json();
  } catch {
    body = res.body;
  }
  const code = errorCodeOf(body);
  expect(code, `${label}: ${res.statusCode} ${res.body.slice(0, 200)}`).toBeDefined();
  expect(statusOf(code!), `${label}: ${code}`).toBe(res.statusCode);
}

/**
 * Random and malformed input against every route: never a 5xx, never a change to stored data, and
 * every error answered with its code.
 * Requests use Bob's token (who owns nothing) or none; Alice's data is what must not change.
 * check-user and DELETE /users/me are left out of "nothing changes": they act on the caller by
 * design and take no input; they are still sent random input for the "never 5xx" half.
 */
describe(`random input on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let bob: { authorization: string };
  let aliceAgentId: number;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp({
      ...issuer.env,
      BETA_ACCESS_CODES: 'the-real-code',
      COMPOSIO_WEBHOOK_SECRET: 'whsec-property-test',
    });
    const { auth: alice } = await signInAs(t, issuer, { sub: 'alice' });
    ({ auth: bob } = await signInAs(t, issuer, { sub: 'bob' }));
    const tool = (await seedService(t.db, { name: 'Gmail', actions: 1 })).actionIds[0]!;
    const created = await t.app.inject({
      method: 'POST',
      url: '/backend/api/v1/agents/',
      headers: alice,
      payload: { name: 'A', description: 'd', tool_ids: [tool] },
    });
    expect(created.statusCode).toBe(201);
    aliceAgentId = created.json().id;
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  const pathId = () =>
    fc.oneof(
      fc.integer({ min: -5, max: 5 }).map(String),
      fc.constantFrom(
        'abc',
        '1.5',
        '1e309',
        '0x10',
        '99999999999999999999',
        '2147483648',
        '%00',
        '%E0%A4%A',
        "1'--",
      ),
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
      fc.constant('ALICE'),
    );

  const body = () =>
    fc.oneof(
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc
        .record(
          {
            name: fc.oneof(
              fc.string({ maxLength: 120 }),
              fc.integer(),
              fc.constant(null),
              fc.constant('\u0000'),
            ),
            description: fc.oneof(fc.string({ maxLength: 30 }), fc.constant(' '), fc.boolean()),
            guidelines: fc.oneof(fc.string({ maxLength: 30 }), fc.constant(null), fc.object()),
            tool_ids: fc.oneof(
              fc.array(fc.oneof(fc.integer(), fc.double(), fc.string()), { maxLength: 5 }),
              fc.constant(Array.from({ length: AGENT_LIMITS.toolIds + 1 }, (_, i) => i + 1)),
            ),
            id: fc.integer(),
            user_id: fc.integer(),
            password: fc.string({ maxLength: 40 }),
          },
          // `id` is always there: an otherwise valid body would rightly create an agent for Bob.
          { requiredKeys: ['id'] },
        )
        .map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 50 }),
      fc.constantFrom('', '{', '[]', 'null', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}'),
    );

  const routes = () => t.app.routeInventory.filter((r) => r.method !== 'HEAD');

  /** The chat's and the demos' operations (outside /backend, so not in the route inventory). */
  const chatRoutes = async () =>
    Object.entries(
      ((await openApiDocument(t.app)) as { paths: Record<string, Record<string, unknown>> }).paths,
    )
      .filter(([path]) => path.startsWith('/chainlit/') || path.startsWith('/demos/'))
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((method) => ['post', 'put', 'patch', 'delete'].includes(method))
          .map((method) => ({ method: method.toUpperCase(), url: path.replace(/\{(\w+)\}/g, ':$1') })),
      );

  // The random walk above reaches each route only now and then; a body the parsers refuse is
  // tried on every route here, because a route with its own error shape once turned it into a 500.
  it('answers a body that cannot be parsed with a 4xx and its code on every route, signed in or not', async () => {
    const bodies: [string, string][] = [
      ['application/json', 'abc'],
      ['application/json', '{'],
      ['text/plain', 'x'],
      ['application/x-www-form-urlencoded', '%%%'],
    ];
    const chatOrigin = { origin: 'http://cadre.test', 'x-requested-with': 'cadre-chat' };
    for (const route of [...routes().filter((r) => r.method !== 'GET'), ...(await chatRoutes())]) {
      const url = route.url.replace(/:(\w+)/g, String(aliceAgentId));
      for (const [contentType, payload] of bodies) {
        for (const headers of [
          { 'content-type': contentType, ...bob, ...chatOrigin },
          { 'content-type': contentType },
        ]) {
          const res = await t.app.inject({ method: route.method as 'POST', url, headers, payload });
          const label = `${route.method} ${url} ${contentType} ${payload}`;
          expect(res.statusCode, label).toBeLessThan(500);
          expectErrorCode(res, label);
        }
      }
    }
    // What Fastify refuses before any route: no such route, a malformed or overlong URL.
    for (const url of [
      '/backend/api/v1/nope',
      '/chainlit/nope',
      '/demos/nope',
      '/backend/api/v1/agents/%E0%A4%A',
      `/backend/api/v1/agents/${'9'.repeat(300)}`,
    ]) {
      const res = await t.app.inject({ url, headers: { ...bob, accept: 'application/json' } });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expectErrorCode(res, url);
    }
    expect(
      await t.db.kysely.selectFrom('agents').select('id').where('id', '=', aliceAgentId).execute(),
    ).toHaveLength(1);
  });

  it('never answers 5xx and never changes stored data', async () => {
    // Calls that rightly change the caller's own rows (Bob may connect a real catalog service).
    const mutatesCaller = (url: string) =>
      url.endsWith('/users/check-user') || url.endsWith('/users/me') || url.includes('/services/');
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: 1000 }),
        pathId(),
        body(),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
        fc.constantFrom('bob', 'none', 'garbage'),
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'),
        async (pick, id, payload, query, who, contentType) => {
          const list = routes();
          const route = list[pick % list.length]!;
          const realId = id === 'ALICE' ? String(aliceAgentId) : id;
          const url = route.url.replace(/:(\w+)/g, () => realId);
          const before = mutatesCaller(route.url)
            ? undefined
            : await tableCounts(t.db, ['rate_limits', 'audit_events', 'users']);
          const agentBefore = await t.db.kysely
            .selectFrom('agents')
            .selectAll()
            .where('id', '=', aliceAgentId)
            .execute();
          const headers: Record<string, string> = { 'content-type': contentType };
          if (who === 'bob') headers.authorization = bob.authorization;
          if (who === 'garbage') headers.authorization = `Bearer ${payload.slice(0, 20)}`;
          const res = await t.app.inject({
            method: route.method as 'GET',
            url,
            query,
            headers,
            payload: route.method === 'GET' ? undefined : payload,
          });
          expect(res.statusCode, `${route.method} ${url} ${payload}`).toBeLessThan(500);
          expectErrorCode(res, `${route.method} ${url} ${payload}`);
          if (before)
            expect(await tableCounts(t.db, ['rate_limits', 'audit_events', 'users'])).toEqual(before);
          expect(
            await t.db.kysely.selectFrom('agents').selectAll().where('id', '=', aliceAgentId).execute(),
          ).toEqual(agentBefore);
        },
      ),
      { numRuns: 150 },
    );
  });
});
