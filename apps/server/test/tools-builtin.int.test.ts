import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiKeyBodySchema } from '@cadre/contract';
import { HttpError, ValidationFailure } from '../src/http/errors.ts';
import { newBrowserSecret } from '../src/modules/services/oauth-flow.ts';
import type { ToolProvider } from '../src/modules/tools/provider.ts';
import { syncProvider } from '../src/modules/tools/registry.ts';
import { startFakeServer, type FakeServer } from './support/fake-http.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { createUser } from './support/users.ts';

async function serviceId(t: TestApp, key: string) {
  const row = await t.db.kysely
    .selectFrom('services')
    .select('id')
    .where('provider', '=', 'builtin')
    .where('provider_key', '=', key)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function actionId(t: TestApp, key: string, name: string) {
  const sid = await serviceId(t, key);
  const row = await t.db.kysely
    .selectFrom('actions')
    .select('id')
    .where('service_id', '=', sid)
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}

describe(`built-in services on ${testDatabaseKind()}`, () => {
  let t: TestApp;
  let alice: number;
  let bob: number;
  beforeEach(async () => {
    t = await createTestApp();
    alice = await createUser(t.db, 'alice');
    bob = await createUser(t.db, 'bob');
  });
  afterEach(async () => {
    await t?.close();
  });

  it('lists the built-in catalog with schemes, logos and actions; GitHub only when configured', async () => {
    const services = await t.app.services.listServicesForUser(alice);
    const names = services.map((s) => s.name);
    for (const name of [
      'Calculator',
      'Date & Time',
      'Notes',
      'Calendar',
      'Web Page Reader',
      'Hacker News',
      'Wikipedia',
      'Web Search',
      'YouTube Search',
      'Place Search',
      'Weather',
    ]) {
      expect(names).toContain(name);
    }
    expect(names).not.toContain('GitHub');
    const weather = services.find((s) => s.name === 'Weather')!;
    expect(weather).toMatchObject({ status: 'INACTIVE', auth_schemes: ['API_KEY'] });
    // A logo is a URL to an immutable file, fetched once by the browser, not inlined in each row.
    expect(weather.logo).toMatch(/^\/backend\/api\/v1\/public\/logos\/[0-9a-f]{16}\.svg$/);
    const logo = await t.app.inject({ method: 'GET', url: weather.logo! });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/svg+xml');
    expect(logo.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(logo.headers['content-security-policy']).toContain("default-src 'none'");
    expect(logo.body).toMatch(/^<svg [^>]*>.*<\/svg>$/);
    expect(services.find((s) => s.name === 'Calculator')!.auth_schemes).toEqual(['NO_AUTH']);

    const actions = await t.app.services.listActions(await serviceId(t, 'calculator'), alice);
    expect(actions.map((a) => a.name)).toEqual(
      expect.arrayContaining(['add', 'divide', 'evaluate', 'percent', 'sqrt']),
    );
    expect(actions[0]).toMatchObject({ app_name: 'Calculator' });
    const schema = await t.db.kysely
      .selectFrom('actions')
      .select(['input_schema', 'effect'])
      .where('id', '=', await actionId(t, 'notes', 'create_note'))
      .executeTakeFirstOrThrow();
    expect(schema.effect).toBe('write');
    expect(JSON.parse(schema.input_schema)).toMatchObject({
      type: 'object',
      properties: { title: { type: 'string' } },
      required: ['title'],
    });
  });

  it('a re-sync of an unchanged catalog writes no row; a changed definition rewrites its own row only', async () => {
    // Stamped apart from any time a sync would write, so a rewritten row shows.
    const stamp = '2000-01-01T00:00:00.000Z';
    await t.db.kysely.updateTable('services').set({ updated_at: stamp }).execute();
    await t.db.kysely.updateTable('actions').set({ updated_at: stamp }).execute();
    await t.app.tools.syncCatalog();
    const rewritten = async () => [
      ...(await t.db.kysely
        .selectFrom('services')
        .select('provider_key as key')
        .where('updated_at', '!=', stamp)
        .execute()),
      ...(await t.db.kysely
        .selectFrom('actions')
        .select('name as key')
        .where('updated_at', '!=', stamp)
        .execute()),
    ];
    expect(await rewritten()).toEqual([]);

    const evaluate = await actionId(t, 'calculator', 'evaluate');
    await t.db.kysely
      .updateTable('actions')
      .set({ description: 'stale' })
      .where('id', '=', evaluate)
      .execute();
    await t.db.kysely
      .updateTable('services')
      .set({ name: 'Stale' })
      .where('provider_key', '=', 'calculator')
      .execute();
    await t.app.tools.syncCatalog();
    expect((await rewritten()).map((r) => r.key).sort()).toEqual(['calculator', 'evaluate']);
    const restored = await t.db.kysely
      .selectFrom('actions')
      .select('description')
      .where('id', '=', evaluate)
      .executeTakeFirstOrThrow();
    expect(restored.description).not.toBe('stale');
  });

  it('keeps ids across re-syncs and deprecates (never deletes) actions a provider drops', async () => {
    const before = await t.db.kysely
      .selectFrom('actions')
      .select(['id', 'name', 'service_id'])
      .orderBy('id')
      .execute();
    await t.app.tools.syncCatalog();
    await Promise.all([t.app.tools.syncCatalog(), t.app.tools.syncCatalog()]);
    const after = await t.db.kysely
      .selectFrom('actions')
      .select(['id', 'name', 'service_id'])
      .orderBy('id')
      .execute();
    expect(after).toEqual(before);

    let actions = ['one', 'two'];
    const fake: ToolProvider = {
      id: 'mcp',
      listServices: async () => [
        { key: 'fake', name: 'Fake', description: 'd', logo: null, authScheme: 'NO_AUTH' },
      ],
      listActions: async () =>
        actions.map((name) => ({
          name,
          displayName: name,
          description: name,
          inputSchema: { type: 'object' },
          effect: 'read' as const,
        })),
      connect: async () => ({ status: 'ACTIVE' }),
      disconnect: async () => {},
      execute: async () => ({ ok: true, data: null }),
    };
    await syncProvider(t.db, fake);
    const first = await t.db.kysely
      .selectFrom('actions')
      .innerJoin('services', 'services.id', 'actions.service_id')
      .select(['actions.id', 'actions.name', 'actions.deprecated'])
      .where('services.provider_key', '=', 'fake')
      .orderBy('actions.name')
      .execute();
    actions = ['two', 'three'];
    await syncProvider(t.db, fake);
    const second = await t.db.kysely
      .selectFrom('actions')
      .innerJoin('services', 'services.id', 'actions.service_id')
      .select(['actions.id', 'actions.name', 'actions.deprecated'])
      .where('services.provider_key', '=', 'fake')
      .orderBy('actions.name')
      .execute();
    const byName = Object.fromEntries(second.map((a) => [a.name, a]));
    expect(byName.one).toEqual({ ...first.find((a) => a.name === 'one'), deprecated: 1 });
    expect(byName.two).toEqual(first.find((a) => a.name === 'two'));
    expect(byName.three?.deprecated).toBe(0);
    actions = ['one'];
    await syncProvider(t.db, fake);
    const third = await t.db.kysely
      .selectFrom('actions')
      .select(['id', 'deprecated'])
      .where('id', '=', byName.one!.id)
      .executeTakeFirstOrThrow();
    expect(third.deprecated).toBe(0);
  });

  it('registers a no-auth service, refuses the wrong scheme and unknown services, and disconnects', async () => {
    const calc = await serviceId(t, 'calculator');
    const evaluate = await actionId(t, 'calculator', 'evaluate');
    expect(await t.app.tools.executeAction(alice, evaluate, { expression: '1+1' })).toMatchObject({
      ok: false,
      code: 'auth_expired',
    });
    expect(await t.app.services.registerNoAuthService(calc, alice)).toEqual({
      redirectUrl: null,
      connectionStatus: 'ACTIVE',
    });
    expect((await t.app.services.listActiveServices(alice)).map((s) => s.id)).toEqual([calc]);
    expect(await t.app.services.listActiveServices(bob)).toEqual([]);
    expect((await t.app.services.listServicesForUser(alice))[0]).toMatchObject({
      id: calc,
      status: 'ACTIVE',
    });

    expect(
      await t.app.tools.executeAction(alice, evaluate, { expression: '(3 + 4) * 2 ^ 3 / sqrt(16)' }),
    ).toEqual({
      ok: true,
      data: { expression: '(3 + 4) * 2 ^ 3 / sqrt(16)', result: 14 },
    });
    expect(await t.app.tools.executeAction(alice, evaluate, { expression: 'process.exit()' })).toMatchObject({
      ok: false,
      code: 'invalid_input',
    });
    expect(await t.app.tools.executeAction(alice, evaluate, {})).toMatchObject({
      ok: false,
      code: 'invalid_input',
    });
    // Bob has not connected the calculator: he cannot use Alice's connection.
    expect(await t.app.tools.executeAction(bob, evaluate, { expression: '1+1' })).toMatchObject({
      ok: false,
      code: 'auth_expired',
    });

    await expect(t.app.services.registerApiService(calc, alice, 'k')).rejects.toBeInstanceOf(
      ValidationFailure,
    );
    await expect(
      t.app.services.registerAuthService(calc, alice, { secret: newBrowserSecret() }),
    ).rejects.toBeInstanceOf(ValidationFailure);
    await expect(
      t.app.services.registerNoAuthService(await serviceId(t, 'weather'), alice),
    ).rejects.toBeInstanceOf(ValidationFailure);
    await expect(t.app.services.registerNoAuthService(999_999, alice)).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(t.app.services.listActions(999_999, alice)).rejects.toBeInstanceOf(HttpError);

    await expect(t.app.services.disconnect(calc, bob)).rejects.toMatchObject({ statusCode: 404 });
    await t.app.services.disconnect(calc, alice);
    expect(await t.app.services.listActiveServices(alice)).toEqual([]);
    // The chat says what the agents list and editor show for the tool, and where to reconnect.
    expect(await t.app.tools.executeAction(alice, evaluate, { expression: '1+1' })).toEqual({
      ok: false,
      code: 'auth_expired',
      error: 'Evaluate expression needs reconnecting: connect Calculator again on the Services page',
    });
  });

  it('keeps notes per user: Bob never reads or changes Alice’s notes', async () => {
    const notes = await serviceId(t, 'notes');
    await t.app.services.registerNoAuthService(notes, alice);
    await t.app.services.registerNoAuthService(notes, bob);
    const run = (user: number, name: string, args: unknown) =>
      actionId(t, 'notes', name).then((id) => t.app.tools.executeAction(user, id, args));

    const created = await run(alice, 'create_note', { title: 'Groceries', body: 'Eggs, 100% cocoa, milk' });
    expect(created).toMatchObject({ ok: true, data: { title: 'Groceries' } });
    const id = (created as { data: { id: number } }).data.id;
    await run(alice, 'create_note', { title: 'Ideas', body: 'A trip to Lyon' });

    expect(((await run(alice, 'list_notes', {})) as { data: { notes: unknown[] } }).data.notes).toHaveLength(
      2,
    );
    expect(await run(alice, 'search_notes', { query: 'COCOA' })).toMatchObject({
      ok: true,
      data: { notes: [{ id }] },
    });
    // LIKE wildcards in the query are literal.
    expect(await run(alice, 'search_notes', { query: '100%' })).toMatchObject({
      ok: true,
      data: { notes: [{ id }] },
    });
    expect(await run(alice, 'search_notes', { query: '_' })).toMatchObject({ ok: true, data: { notes: [] } });

    expect(await run(bob, 'list_notes', {})).toEqual({ ok: true, data: { notes: [] } });
    expect(await run(bob, 'search_notes', { query: 'Groceries' })).toEqual({ ok: true, data: { notes: [] } });
    expect(await run(bob, 'get_note', { id })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await run(bob, 'update_note', { id, title: 'pwned' })).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    expect(await run(bob, 'delete_note', { id })).toMatchObject({ ok: false, code: 'not_found' });

    expect(await run(alice, 'update_note', { id, body: 'Eggs' })).toMatchObject({
      ok: true,
      data: { title: 'Groceries', body: 'Eggs' },
    });
    expect(await run(alice, 'delete_note', { id })).toEqual({ ok: true, data: { deleted: true, id } });
    expect(await run(alice, 'get_note', { id })).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('runs a per-user calendar with free slots and .ics export', async () => {
    const cal = await serviceId(t, 'calendar');
    await t.app.services.registerNoAuthService(cal, alice);
    await t.app.services.registerNoAuthService(cal, bob);
    const run = (user: number, name: string, args: unknown) =>
      actionId(t, 'calendar', name).then((id) => t.app.tools.executeAction(user, id, args));

    const standup = await run(alice, 'create_event', {
      title: 'Stand-up, daily',
      start: '2026-03-02T09:00:00+01:00',
      end: '2026-03-02T09:30:00+01:00',
      location: 'Room 1',
    });
    expect(standup).toMatchObject({
      ok: true,
      data: { start: '2026-03-02T08:00:00.000Z', end: '2026-03-02T08:30:00.000Z' },
    });
    await run(alice, 'create_event', {
      title: 'Lunch',
      start: '2026-03-02T12:00:00Z',
      end: '2026-03-02T13:00:00Z',
    });
    expect(
      await run(alice, 'create_event', {
        title: 'Bad',
        start: '2026-03-02T12:00:00Z',
        end: '2026-03-02T11:00:00Z',
      }),
    ).toMatchObject({ ok: false, code: 'invalid_input' });

    const slots = await run(alice, 'find_free_slots', {
      from: '2026-03-02T08:00:00Z',
      to: '2026-03-02T14:00:00Z',
      duration_minutes: 60,
    });
    expect(slots).toEqual({
      ok: true,
      data: {
        free_slots: [
          { start: '2026-03-02T08:30:00.000Z', end: '2026-03-02T12:00:00.000Z', minutes: 210 },
          { start: '2026-03-02T13:00:00.000Z', end: '2026-03-02T14:00:00.000Z', minutes: 60 },
        ],
      },
    });
    const ics = (await run(alice, 'export_ics', {})) as { data: { ics: string; count: number } };
    expect(ics.data.count).toBe(2);
    expect(ics.data.ics).toContain('BEGIN:VCALENDAR\r\n');
    expect(ics.data.ics).toContain('DTSTART:20260302T080000Z\r\n');
    expect(ics.data.ics).toContain('SUMMARY:Stand-up\\, daily\r\n');

    const id = (standup as { data: { id: number } }).data.id;
    expect(await run(bob, 'list_events', {})).toEqual({ ok: true, data: { events: [] } });
    expect(await run(bob, 'search_events', { query: 'Stand' })).toEqual({ ok: true, data: { events: [] } });
    expect(await run(bob, 'update_event', { id, title: 'x' })).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    expect(await run(bob, 'delete_event', { id })).toMatchObject({ ok: false, code: 'not_found' });
    expect(((await run(bob, 'export_ics', {})) as { data: { count: number } }).data.count).toBe(0);

    expect(
      await run(alice, 'update_event', { id, start: '2026-03-02T10:00:00Z', end: '2026-03-02T10:15:00Z' }),
    ).toMatchObject({ ok: true, data: { start: '2026-03-02T10:00:00.000Z' } });
    expect(await run(alice, 'search_events', { query: 'room 1' })).toMatchObject({
      ok: true,
      data: { events: [{ id }] },
    });
    expect(await run(alice, 'delete_event', { id })).toMatchObject({ ok: true });
  });

  it('converts time zones and does date arithmetic', async () => {
    await t.app.services.registerNoAuthService(await serviceId(t, 'datetime'), alice);
    const run = (name: string, args: unknown) =>
      actionId(t, 'datetime', name).then((id) => t.app.tools.executeAction(alice, id, args));
    expect(
      await run('convert_time', {
        datetime: '2026-07-01T09:00',
        from_time_zone: 'Europe/Paris',
        to_time_zone: 'America/New_York',
      }),
    ).toMatchObject({
      ok: true,
      data: {
        from: { utc: '2026-07-01T07:00:00.000Z', utc_offset: '+02:00' },
        to: { local_time: '2026-07-01T03:00:00', utc_offset: '-04:00' },
      },
    });
    expect(await run('add_to_date', { date: '2024-01-31', amount: 1, unit: 'months' })).toMatchObject({
      ok: true,
      data: { date: '2024-02-29' },
    });
    expect(await run('day_of_week', { date: '2026-01-01' })).toMatchObject({
      ok: true,
      data: { day_of_week: 'Thursday', iso_week: 1, day_of_year: 1 },
    });
    expect(await run('difference', { start: '2024-01-15', end: '2026-03-20' })).toMatchObject({
      ok: true,
      data: { calendar: { years: 2, months: 2, days: 5 }, total_days: 795 },
    });
    expect(await run('now', { time_zone: 'Mars/Olympus' })).toMatchObject({
      ok: false,
      code: 'invalid_input',
    });
    expect(await run('now', { time_zone: 'Asia/Tokyo' })).toMatchObject({
      ok: true,
      data: { time_zone: 'Asia/Tokyo', utc_offset: '+09:00' },
    });
  });
});

describe(`built-in services that call APIs on ${testDatabaseKind()}`, () => {
  const canary = `sk-canary-${crypto.randomUUID()}`;
  // The keys the fake APIs accept; a test revokes one by deleting it.
  const accepted = new Set([canary]);
  const ok = (key: unknown) => accepted.has(String(key));
  /** How Google APIs answer a key that does not exist. */
  const googleKeyInvalid = {
    status: 400,
    json: {
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [{ reason: 'API_KEY_INVALID' }],
      },
    },
  };
  let api: FakeServer;
  let t: TestApp;
  let alice: number;

  beforeAll(async () => {
    api = await startFakeServer((req) => {
      const q = req.url.searchParams;
      if (req.headers['x-subscription-token'] === 'provider-down')
        return { status: 503, json: { error: 'maintenance' } };
      switch (req.path) {
        case '/v0/topstories.json':
          return { json: [101, 102, 103] };
        case '/v0/item/101.json':
          return {
            json: {
              id: 101,
              type: 'story',
              by: 'pg',
              time: 1700000000,
              title: 'First',
              url: 'https://a.example',
              score: 50,
              descendants: 3,
            },
          };
        case '/v0/item/102.json':
          return { json: { id: 102, type: 'story', deleted: true } };
        case '/v0/item/103.json':
          return { json: { id: 103, type: 'story', title: 'Third', score: 7 } };
        case '/api/v1/search':
          return {
            json: {
              nbHits: 1,
              hits: [
                {
                  objectID: '555',
                  title: `About ${q.get('query')}`,
                  url: 'https://b.example',
                  author: 'dang',
                  points: 9,
                  num_comments: 2,
                },
              ],
            },
          };
        case '/w/api.php':
          if (q.get('action') !== 'query' || q.get('list') !== 'search') return { status: 400, json: {} };
          return {
            json: {
              query: {
                searchinfo: { totalhits: 1 },
                search: [
                  {
                    title: 'Ada Lovelace',
                    pageid: 974,
                    snippet: '<span class="searchmatch">Ada</span> was a mathematician',
                  },
                ],
              },
            },
          };
        case '/api/rest_v1/page/summary/Ada_Lovelace':
          return {
            json: {
              title: 'Ada Lovelace',
              description: 'English mathematician',
              extract: 'Augusta Ada King...',
              type: 'standard',
              content_urls: { desktop: { page: 'https://en.wikipedia.org/wiki/Ada_Lovelace' } },
            },
          };
        case '/res/v1/web/search':
          if (!ok(req.headers['x-subscription-token']))
            return {
              status: 401,
              json: { error: { detail: `bad token ${req.headers['x-subscription-token']}` } },
            };
          return {
            json: {
              web: {
                results: [{ title: 'Result', url: 'https://r.example', description: `for ${q.get('q')}` }],
              },
            },
          };
        case '/youtube/v3/i18nLanguages':
          if (!ok(q.get('key'))) return googleKeyInvalid;
          return { json: { kind: 'youtube#i18nLanguageListResponse', items: [] } };
        case '/v1/places/ChIJj61dQgK6j4AR4GeTYWZsKWw':
          if (!ok(req.headers['x-goog-api-key'])) return googleKeyInvalid;
          return { json: { id: 'ChIJj61dQgK6j4AR4GeTYWZsKWw' } };
        case '/youtube/v3/search':
          if (!ok(q.get('key')) || q.get('part') !== 'snippet') return { status: 400, json: {} };
          return {
            json: {
              items: [
                {
                  id: { kind: 'youtube#video', videoId: 'abc123' },
                  snippet: {
                    title: 'Video',
                    channelTitle: 'Chan',
                    description: 'd',
                    publishedAt: '2025-01-01T00:00:00Z',
                  },
                },
              ],
            },
          };
        case '/v1/places:searchText': {
          const body = JSON.parse(req.body) as { textQuery: string };
          if (
            !ok(req.headers['x-goog-api-key']) ||
            !String(req.headers['x-goog-fieldmask']).includes('places.displayName')
          )
            return { status: 403, json: {} };
          return {
            json: {
              places: [
                {
                  id: 'p1',
                  displayName: { text: `Café for ${body.textQuery}` },
                  formattedAddress: '1 Rue, Lyon',
                  rating: 4.6,
                  googleMapsUri: 'https://maps.example/p1',
                },
              ],
            },
          };
        }
        case '/data/2.5/weather':
          if (!ok(q.get('appid')))
            return {
              status: 401,
              json: {
                cod: 401,
                message: 'Invalid API key. Please see https://openweathermap.org/faq#error401 for more info.',
              },
            };
          return {
            json: {
              name: q.get('q'),
              sys: { country: 'FR' },
              weather: [{ main: 'Clouds', description: 'broken clouds' }],
              main: { temp: 12.5, feels_like: 11, humidity: 80 },
              wind: { speed: 3.1 },
              dt: 1700000000,
            },
          };
        case '/article':
          return {
            headers: { 'content-type': 'text/html; charset=utf-8' },
            text: '<html><head><title>My &amp; Page</title><style>body{}</style></head><body><script>alert(1)</script><h1>Hello</h1><p>Some <b>bold</b> text &lt;here&gt;.</p><a href="/next">Next page</a><ul><li>One</li><li>Two</li></ul></body></html>',
          };
        default:
          return { status: 404, json: { error: 'not found' } };
      }
    });
  });
  afterAll(async () => {
    await api?.close();
  });
  beforeEach(async () => {
    t = await createTestApp({
      EGRESS_ALLOW_PRIVATE: '127.0.0.1',
      BUILTIN_HACKERNEWS_URL: api.url,
      BUILTIN_HACKERNEWS_SEARCH_URL: api.url,
      BUILTIN_WIKIPEDIA_URL: api.url,
      BUILTIN_BRAVE_SEARCH_URL: api.url,
      BUILTIN_YOUTUBE_URL: api.url,
      BUILTIN_PLACES_URL: api.url,
      BUILTIN_WEATHER_URL: api.url,
    });
    alice = await createUser(t.db, 'alice');
  });
  afterEach(async () => {
    await t?.close();
  });

  const run = async (key: string, name: string, args: unknown) =>
    t.app.tools.executeAction(alice, await actionId(t, key, name), args);

  it('reads Hacker News and Wikipedia through their public API shapes', async () => {
    await t.app.services.registerNoAuthService(await serviceId(t, 'hacker_news'), alice);
    await t.app.services.registerNoAuthService(await serviceId(t, 'wikipedia'), alice);
    const top = await run('hacker_news', 'top_stories', { limit: 3 });
    expect(top).toMatchObject({
      ok: true,
      data: {
        stories: [
          { id: 101, title: 'First', comments: 3, time: '2023-11-14T22:13:20.000Z' },
          { id: 103, title: 'Third' },
        ],
      },
    });
    expect(await run('hacker_news', 'search', { query: 'rust' })).toMatchObject({
      ok: true,
      data: { results: [{ id: 555, title: 'About rust' }] },
    });
    expect(api.requests.find((r) => r.path === '/api/v1/search')?.url.searchParams.get('tags')).toBe('story');
    expect(await run('wikipedia', 'search', { query: 'Ada' })).toMatchObject({
      ok: true,
      data: { results: [{ title: 'Ada Lovelace', snippet: 'Ada was a mathematician' }] },
    });
    expect(await run('wikipedia', 'page_summary', { title: 'Ada Lovelace' })).toMatchObject({
      ok: true,
      data: { description: 'English mathematician' },
    });
    expect(await run('wikipedia', 'page_summary', { title: 'Nope' })).toMatchObject({
      ok: false,
      code: 'not_found',
    });
  });

  it('reads a web page as text, and refuses private addresses the configuration does not allow', async () => {
    await t.app.services.registerNoAuthService(await serviceId(t, 'web_reader'), alice);
    const page = await run('web_reader', 'read_page', { url: `${api.url}/article` });
    expect(page).toMatchObject({ ok: true, data: { title: 'My & Page' } });
    const text = (page as { data: { text: string } }).data.text;
    expect(text).toContain('# Hello');
    expect(text).toContain('Some bold text <here>.');
    expect(text).toContain(`Next page (${api.url}/next)`);
    expect(text).toContain('- One');
    expect(text).not.toContain('alert');
    expect(text).not.toContain('body{}');
    expect(
      await run('web_reader', 'read_page', { url: 'http://169.254.169.254/latest/meta-data/' }),
    ).toMatchObject({ ok: false, code: 'provider_error' });
    expect(await run('web_reader', 'read_page', { url: 'file:///etc/passwd' })).toMatchObject({
      ok: false,
      code: 'invalid_input',
    });
  });

  it('calls API-key services with the key only where each API wants it; the key never leaks (G1, G2)', async () => {
    // The route's body schema refuses a blank key and trims the key before the service sees it.
    expect(apiKeyBodySchema.safeParse({ api_key: '   ' }).success).toBe(false);
    const { api_key: trimmed } = apiKeyBodySchema.parse({ api_key: `  ${canary}  ` });
    for (const key of ['web_search', 'youtube', 'places', 'weather']) {
      expect(await t.app.services.registerApiService(await serviceId(t, key), alice, trimmed)).toEqual({
        redirectUrl: null,
        connectionStatus: 'ACTIVE',
      });
    }
    const rows = await t.db.kysely.selectFrom('connections').selectAll().execute();
    expect(rows).toHaveLength(4);
    expect(JSON.stringify(rows)).not.toContain(canary);
    expect(JSON.stringify(rows)).not.toContain(canary.slice(10));

    expect(await run('web_search', 'web_search', { query: 'cadre' })).toMatchObject({
      ok: true,
      data: { results: [{ title: 'Result', description: 'for cadre' }] },
    });
    expect(await run('youtube', 'search_videos', { query: 'jazz' })).toMatchObject({
      ok: true,
      data: { videos: [{ video_id: 'abc123', url: 'https://www.youtube.com/watch?v=abc123' }] },
    });
    expect(await run('places', 'search_places', { query: 'coffee Lyon' })).toMatchObject({
      ok: true,
      data: { places: [{ name: 'Café for coffee Lyon', rating: 4.6 }] },
    });
    expect(await run('weather', 'current_weather', { city: 'Lyon,FR' })).toMatchObject({
      ok: true,
      data: { city: 'Lyon,FR', conditions: 'broken clouds', temperature: 12.5 },
    });
    const lists = JSON.stringify([
      await t.app.services.listServicesForUser(alice),
      await t.app.services.listActions(await serviceId(t, 'weather'), alice),
    ]);
    expect(lists).not.toContain(canary);

    // A provider 401 (the key was revoked after it was saved): a clear error without the key, and
    // the connection needs reconnecting.
    accepted.add(`${canary}-revoked`);
    await t.app.services.registerApiService(await serviceId(t, 'weather'), alice, `${canary}-revoked`);
    accepted.delete(`${canary}-revoked`);
    const failed = await run('weather', 'current_weather', { city: 'Lyon' });
    expect(failed).toMatchObject({ ok: false, code: 'auth_expired' });
    expect(JSON.stringify(failed)).not.toContain('sk-canary');
    expect((await t.app.services.listServicesForUser(alice)).find((s) => s.name === 'Weather')?.status).toBe(
      'INACTIVE',
    );
    accepted.add(`${canary}-bad`);
    await t.app.services.registerApiService(await serviceId(t, 'web_search'), alice, `${canary}-bad`);
    accepted.delete(`${canary}-bad`);
    const failedSearch = await run('web_search', 'web_search', { query: 'x' });
    expect(JSON.stringify(failedSearch)).not.toContain('sk-canary');
    expect(t.logs.join('\n')).not.toContain('sk-canary');
  });

  it('checks a key with its provider when it is saved: a refused key or a provider that cannot answer saves nothing', async () => {
    const wrong = `sk-canary-wrong-${crypto.randomUUID()}`;
    // Google APIs refuse a key that does not exist with 400 API_KEY_INVALID; the others with 401.
    const refusals: [string, string][] = [
      ['web_search', 'Brave Search refused this API key (401)'],
      ['youtube', 'YouTube refused this API key (400)'],
      ['places', 'Google Places refused this API key (400)'],
      ['weather', 'OpenWeather refused this API key (401)'],
    ];
    for (const [key, msg] of refusals) {
      const refused = await t.app.services
        .registerApiService(await serviceId(t, key), alice, wrong)
        .catch((err: unknown) => err);
      expect(refused, key).toBeInstanceOf(ValidationFailure);
      expect((refused as ValidationFailure).issues, key).toEqual([
        { loc: ['body', 'api_key'], msg, type: 'key_refused' },
      ]);
    }
    // Each check is the API's cheapest call, with the key where that API wants it.
    const checks = api.requests.filter((r) => JSON.stringify(r).includes(wrong));
    expect(checks.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /res/v1/web/search',
      'GET /youtube/v3/i18nLanguages',
      'GET /v1/places/ChIJj61dQgK6j4AR4GeTYWZsKWw',
      'GET /data/2.5/weather',
    ]);
    expect(checks[0]!.url.searchParams.get('count')).toBe('1');
    expect(checks[0]!.headers['x-subscription-token']).toBe(wrong);
    expect(checks[1]!.url.searchParams.get('key')).toBe(wrong);
    expect(checks[2]!.headers['x-goog-fieldmask']).toBe('id');
    expect(checks[3]!.url.searchParams.get('appid')).toBe(wrong);

    // A provider that answers neither yes nor no, and one that cannot be reached: 502, nothing saved.
    const down = await t.app.services
      .registerApiService(await serviceId(t, 'web_search'), alice, 'provider-down')
      .catch((err: unknown) => err);
    expect(down).toBeInstanceOf(HttpError);
    expect(down).toMatchObject({
      statusCode: 502,
      message: 'Brave Search could not check this API key (it answered 503); nothing was saved, try again',
    });
    const gone = await startFakeServer(() => ({}));
    await gone.close();
    const offline = await createTestApp({ EGRESS_ALLOW_PRIVATE: '127.0.0.1', BUILTIN_WEATHER_URL: gone.url });
    try {
      const carol = await createUser(offline.db, 'carol');
      const unreachable = await offline.app.services
        .registerApiService(await serviceId(offline, 'weather'), carol, canary)
        .catch((err: unknown) => err);
      expect(unreachable).toMatchObject({ statusCode: 502 });
      expect((unreachable as Error).message).toMatch(
        /^OpenWeather could not be reached to check this API key \(.+\); nothing was saved, try again$/,
      );
      expect((unreachable as Error).message).not.toContain(canary);
      expect(await offline.db.kysely.selectFrom('connections').selectAll().execute()).toEqual([]);
    } finally {
      await offline.close();
    }
    expect(await t.db.kysely.selectFrom('connections').selectAll().execute()).toEqual([]);
    expect(t.logs.join('\n')).not.toContain(wrong);
  });
});
