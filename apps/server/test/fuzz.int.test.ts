import fs from 'node:fs';
import path from 'node:path';
import { CHAT_CSRF_HEADER, CHAT_CSRF_VALUE, CHAT_SESSION_COOKIE, DEMO_SESSION_COOKIE } from '@cadre/contract';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChatDist } from '../src/modules/chat/http/frame-files.ts';
import { ORIGIN } from './support/chat-fixtures.ts';
import { appRoutes } from './support/routes.ts';
import { seedService } from './support/seed.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { passBetaGate, signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

/**
 * R11 / the fuzz of issue 15: generated requests against every operation of the OpenAPI document
 * and every /chainlit and /demos route of the running app, with and without credentials. Bodies
 * follow the documented request schema (so they reach the handlers) or are anything at all. The
 * seed is fixed, so a failure replays; any 5xx fails.
 */

/** The subset of JSON Schema the API's zod schemas produce. */
interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  format?: string;
}

/**
 * Values that fit a schema, mostly: lengths and ranges are kept small, and URLs point only at
 * addresses the egress guard refuses before opening a socket (no request leaves the machine).
 */
function valueOf(schema: JsonSchema, resolve: (ref: string) => JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.$ref) return valueOf(resolve(schema.$ref), resolve, depth);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((s) => valueOf(s, resolve, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (depth > 4) return fc.constant(null);
  switch (type) {
    case 'string':
      if (schema.format === 'uri')
        return fc.constantFrom('http://127.0.0.1/mcp', 'http://10.0.0.1/x', 'ftp://x', 'not a url');
      return fc.string({
        minLength: Math.min(schema.minLength ?? 0, 5),
        maxLength: Math.min(schema.maxLength ?? 40, 80),
      });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -5, max: Math.min(schema.maximum ?? 1000, 1000) });
    case 'number':
      return fc.double({ noNaN: true, min: -1e6, max: 1e6 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? valueOf(schema.items, resolve, depth + 1) : fc.jsonValue(), {
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, valueOf(s, resolve, depth + 1)])),
        { requiredKeys: (schema.required ?? []).filter((k) => k in properties) },
      );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

interface FuzzRoute {
  method: string;
  /** Fastify's form: `:name` parameters, `*` wildcards. */
  url: string;
  body?: JsonSchema;
}

/** Nothing, a token that is not one, or the credential the route's area takes (token or cookie). */
type Who = 'none' | 'garbage' | 'own';

describe(`fuzz over every route, on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let routes: FuzzRoute[];
  let resolve: (ref: string) => JsonSchema;
  const credentials: Record<'user' | 'chat' | 'demo', Record<string, string>> = {
    user: {},
    chat: {},
    demo: {},
  };
  const ids: Record<string, string[]> = {};

  const newDemoSession = async () => {
    const boundary = '----cadre-fuzz';
    const res = await t.app.inject({
      method: 'POST',
      url: '/demos/login',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, origin: ORIGIN },
      payload:
        `--${boundary}\r\nContent-Disposition: form-data; name="username"\r\n\r\nanonymous-user\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\nvcdemo\r\n--${boundary}--\r\n`,
    });
    const value = res.cookies.find((c) => c.name === DEMO_SESSION_COOKIE)!.value;
    return { cookie: `${DEMO_SESSION_COOKIE}=${value}`, origin: ORIGIN, [CHAT_CSRF_HEADER]: CHAT_CSRF_VALUE };
  };
  /** A chat session on an agent of its own (the fuzz may delete the user's other agents). */
  const newChatSession = async () => {
    const agent = await t.app.inject({
      method: 'POST',
      url: '/backend/api/v1/agents/',
      headers: credentials.user,
      payload: { name: 'Chat', description: 'a session of its own' },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/chainlit/auth/header',
      headers: { ...credentials.user, 'x-agent-id': String(agent.json().id) },
    });
    const value = res.cookies.find((c) => c.name === CHAT_SESSION_COOKIE)!.value;
    return { cookie: `${CHAT_SESSION_COOKIE}=${value}`, origin: ORIGIN, [CHAT_CSRF_HEADER]: CHAT_CSRF_VALUE };
  };

  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp({
      ...issuer.env,
      BETA_ACCESS_CODES: 'fuzz-code',
      COMPOSIO_WEBHOOK_SECRET: 'whsec-fuzz',
      DEMO_LOGINS_PER_HOUR: '100000',
      DEMO_CHAT_TURNS_PER_MINUTE: '100000',
      CHAT_TURNS_PER_MINUTE: '10000',
    });
    await t.app.triggers.stop();
    const tool = (await seedService(t.db, { name: 'Gmail', actions: 1 })).actionIds[0]!;
    // The user's browser passed the gate and keeps the proof, as a real one does.
    const { auth } = await signInAs(t, issuer, { sub: 'fuzzer', email: 'fuzzer@example.com' });
    credentials.user = { ...auth, cookie: await passBetaGate(t.app, t.config) };
    const agent = await t.app.inject({
      method: 'POST',
      url: '/backend/api/v1/agents/',
      headers: credentials.user,
      payload: { name: 'Fuzzed', description: 'target', tool_ids: [tool] },
    });
    const agentId = String(agent.json().id);
    credentials.chat = await newChatSession();
    credentials.demo = await newDemoSession();
    const thread = await t.app.inject({
      method: 'POST',
      url: '/chainlit/threads',
      headers: credentials.chat,
      payload: { name: 'fuzz' },
    });
    Object.assign(ids, {
      agent_id: [agentId],
      service_id: [String(tool)],
      threadId: [String(thread.json().id ?? crypto.randomUUID())],
    });

    const doc = (await t.app.inject({ method: 'GET', url: '/backend/openapi.json' })).json<{
      paths: Record<
        string,
        { servers?: unknown } & Record<
          string,
          { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }
        >
      >;
      components?: { schemas?: Record<string, JsonSchema> };
    }>();
    resolve = (ref) => doc.components?.schemas?.[ref.replace('#/components/schemas/', '')] ?? {};
    // API paths are relative to /backend; the chat's and demos' have a server of their own (`/`).
    const documented = Object.entries(doc.paths).flatMap(([path, { servers, ...operations }]) =>
      Object.entries(operations).map(([method, operation]) => ({
        method: method.toUpperCase(),
        url: `${servers ? '' : '/backend'}${path.replace(/\{(\w+)\}/g, ':$1')}`,
        body: operation.requestBody?.content?.['application/json']?.schema,
      })),
    );
    const isDocumented = new Set(documented.map((r) => `${r.method} ${r.url}`));
    // The chat and demo routes the document leaves out (the frame's files) are fuzzed too.
    const chatAndDemos = appRoutes(t.app)
      .filter((r) => !r.startsWith('HEAD ') && /^\w+ \/(chainlit|demos)/.test(r) && !isDocumented.has(r))
      .map((r) => {
        const [method, url] = r.split(' ') as [string, string];
        return { method, url };
      });
    routes = [...documented, ...chatAndDemos];
    expect(documented.filter((r) => /^\/(chainlit|demos)\//.test(r.url)).length).toBeGreaterThan(20);
    expect(documented.length).toBeGreaterThan(40);
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  /** A chat body: what the chat routes take, with odd values. */
  const chatBody = () =>
    fc.record(
      {
        text: fc.oneof(fc.string({ maxLength: 60 }), fc.constant('Post memo'), fc.integer()),
        threadId: fc.oneof(fc.uuid(), fc.string({ maxLength: 10 })),
        name: fc.oneof(fc.string({ maxLength: 30 }), fc.constant(null)),
        result: fc.jsonValue({ maxDepth: 2 }),
      },
      { requiredKeys: [] },
    );

  const pathValue = (name: string) =>
    fc.oneof(
      fc.constantFrom(...(ids[name] ?? ['1'])),
      fc.integer({ min: -3, max: 5 }).map(String),
      fc.uuid(),
      fc.constantFrom('abc', '1e309', '99999999999999999999', "1'--", '%00', '..%2F..%2Fetc'),
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
    );

  it('R11: never answers 5xx, with or without credentials, on any route', { timeout: 180_000 }, async () => {
    const frameBuilt = fs.existsSync(path.join(defaultChatDist(), 'index.html'));
    const seen = new Set<string>();
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.oneof(
          { weight: 3, arbitrary: fc.constant<Who>('own') },
          { weight: 1, arbitrary: fc.constantFrom<Who>('none', 'garbage') },
        ),
        fc.nat(),
        fc.oneof(
          { weight: 4, arbitrary: fc.constant('application/json') },
          { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded') },
        ),
        fc.dictionary(fc.constantFrom('limit', 'q', 'state', 'code', 'x'), fc.string({ maxLength: 8 }), {
          maxKeys: 2,
        }),
        async (pick, who, bodyPick, contentType, query) => {
          const route = routes[pick % routes.length]!;
          seen.add(`${route.method} ${route.url}`);
          const [params, payload] = fc.sample(
            fc.tuple(
              fc.tuple(...[...route.url.matchAll(/:(\w+)|\*/g)].map((m) => pathValue(m[1] ?? '*'))),
              fc.oneof(
                route.body ? valueOf(route.body, resolve) : chatBody(),
                fc.jsonValue({ maxDepth: 3 }),
                fc.string({ maxLength: 40 }),
              ),
            ),
            { seed: bodyPick, numRuns: 1 },
          )[0]!;
          let index = 0;
          const url = route.url.replace(/:(\w+)|\*/g, () => String(params[index++]));
          const area = url.startsWith('/chainlit') ? 'chat' : url.startsWith('/demos') ? 'demo' : 'user';
          let headers: Record<string, string> = { 'content-type': contentType };
          if (who === 'garbage') headers.authorization = 'Bearer not.a.token';
          else if (who === 'own') headers = { ...headers, ...credentials[area] };
          // Routes that end the caller's session or account get a fresh one of their own.
          if (who === 'own' && url === '/demos/logout') headers = { ...headers, ...(await newDemoSession()) };
          if (who === 'own' && url === '/chainlit/logout')
            headers = { ...headers, ...(await newChatSession()) };
          if (who === 'own' && route.method === 'DELETE' && url === '/backend/api/v1/users/me') {
            const throwaway = await signInAs(t, issuer, { sub: `throwaway-${crypto.randomUUID()}` });
            headers = { ...headers, ...throwaway.auth };
          }
          const request: InjectOptions = {
            method: route.method as 'GET',
            url,
            query,
            headers,
            payload: route.method === 'GET' ? undefined : JSON.stringify(payload),
          };
          const res = await t.app.inject(request);
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          // The chat frame's page says so with 503 while apps/chat is not built (tests run before a build).
          if (!frameBuilt && res.statusCode === 503 && /^\/(chainlit|demos)\/?$/.test(url)) {
            expect(res.body).toContain('has not been built');
            return;
          }
          expect(res.statusCode, `${who} ${route.method} ${url} ${String(request.payload)}`).toBeLessThan(
            500,
          );
        },
      ),
      { seed: 150_015, numRuns: 1_200 },
    );
    // Every route got at least one request, and requests both passed and failed authentication.
    expect(routes.filter((r) => !seen.has(`${r.method} ${r.url}`))).toEqual([]);
    expect(statuses.get(401)).toBeGreaterThan(0);
    expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
  });
});
