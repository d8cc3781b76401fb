import { AGENT_LIMITS, agentListSchema } from '@cadre/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createConnectionStore } from '../src/modules/services/index.ts';
import { seedService, tableCounts } from './support/seed.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const AGENTS = '/backend/api/v1/agents/';
const agentUrl = (id: number | string) => `/backend/api/v1/agents/${id}`;

describe(`agents on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let auth: { authorization: string };
  let userId: number;
  let gmail: { serviceId: number; actionIds: number[] };
  let slack: { serviceId: number; actionIds: number[] };

  beforeAll(async () => {
    issuer = await startTestIssuer();
  });
  afterAll(async () => {
    await issuer?.close();
  });
  const setUp = async () => {
    t = await createTestApp(issuer.env);
    ({ auth, id: userId } = await signInAs(t, issuer, {
      sub: 'alice',
      email: 'alice@example.com',
      name: 'Alice',
    }));
    gmail = await seedService(t.db, { name: 'Gmail', actions: 3 });
    slack = await seedService(t.db, { name: 'Slack', actions: 2, logo: null });
  };
  const tearDown = async () => {
    await t?.close();
  };

  const create = (payload: unknown, headers = auth) =>
    t.app.inject({ method: 'POST', url: AGENTS, headers, payload: payload as object });

  // Each of these changes data, so each gets a fresh app.
  describe('changing data', () => {
    beforeEach(setUp);
    afterEach(tearDown);

    it('creates an agent, trims fields, stores blank guidelines as null and expands its tools in order', async () => {
      const res = await create({
        name: '  Inbox helper ',
        description: ' Sorts mail ',
        guidelines: '   ',
        tool_ids: [slack.actionIds[1], gmail.actionIds[0], slack.actionIds[1]],
      });
      expect(res.statusCode).toBe(201);
      const agent = res.json();
      expect(agent).toEqual({
        id: expect.any(Number),
        name: 'Inbox helper',
        description: 'Sorts mail',
        guidelines: null,
        icon: null,
        color: null,
        starters: [],
        embed_origins: [],
        model_id: null,
        temperature: null,
        model_available: true,
        allow_unattended_writes: false,
        api_writes: 'approve',
        tools: [
          {
            id: slack.actionIds[1],
            display_name: 'Slack action 1',
            name: 'SLACK_ACTION_1',
            description: 'Does thing 1 in Slack',
            logo: null,
            app_name: 'Slack',
            service_id: slack.serviceId,
            needs_reconnecting: true,
          },
          {
            id: gmail.actionIds[0],
            display_name: 'Gmail action 0',
            name: 'GMAIL_ACTION_0',
            description: 'Does thing 0 in Gmail',
            logo: 'https://logos.example/gmail.svg',
            app_name: 'Gmail',
            service_id: gmail.serviceId,
            needs_reconnecting: true,
          },
        ],
      });
      const stored = await t.db.kysely
        .selectFrom('agents')
        .selectAll()
        .where('id', '=', agent.id)
        .executeTakeFirst();
      expect(stored).toMatchObject({ user_id: userId, guidelines: null });
      const tools = await t.db.kysely
        .selectFrom('agent_tools')
        .select(['action_id', 'position', 'version'])
        .where('agent_id', '=', agent.id)
        .orderBy('position')
        .execute();
      expect(tools).toEqual([
        { action_id: slack.actionIds[1], position: 0, version: '1.0.0' },
        { action_id: gmail.actionIds[0], position: 1, version: '1.0.0' },
      ]);
      const audit = await t.db.kysely
        .selectFrom('audit_events')
        .selectAll()
        .where('action', '=', 'agent.create')
        .execute();
      expect(audit).toMatchObject([{ user_id: userId, object_type: 'agent', object_id: String(agent.id) }]);
    });

    it('lists, gets, updates and deletes the caller’s agents', async () => {
      const a = (
        await create({
          name: 'A',
          description: 'first',
          guidelines: 'Be brief',
          tool_ids: [gmail.actionIds[0]],
        })
      ).json();
      const b = (await create({ name: 'B', description: 'second', tool_ids: [] })).json();

      const list = await t.app.inject({ method: 'GET', url: AGENTS, headers: auth });
      expect(list.statusCode).toBe(200);
      expect(list.json().map((x: { id: number }) => x.id)).toEqual([a.id, b.id]);
      expect(list.json()[0].tools.map((x: { id: number }) => x.id)).toEqual([gmail.actionIds[0]]);

      const got = await t.app.inject({ method: 'GET', url: `${agentUrl(a.id)}/agent`, headers: auth });
      expect(got.statusCode).toBe(200);
      expect(got.json()).toEqual(a);

      const patched = await t.app.inject({
        method: 'PATCH',
        url: agentUrl(a.id),
        headers: auth,
        payload: {
          name: 'A2',
          description: 'changed',
          guidelines: '',
          tool_ids: [slack.actionIds[0], gmail.actionIds[2]],
        },
      });
      expect(patched.statusCode).toBe(200);
      expect(patched.json()).toMatchObject({
        id: a.id,
        name: 'A2',
        description: 'changed',
        guidelines: null,
      });
      expect(patched.json().tools.map((x: { id: number }) => x.id)).toEqual([
        slack.actionIds[0],
        gmail.actionIds[2],
      ]);

      // Partial: only the fields sent change.
      const partial = await t.app.inject({
        method: 'PATCH',
        url: agentUrl(a.id),
        headers: auth,
        payload: { guidelines: 'New rules' },
      });
      expect(partial.json()).toMatchObject({ name: 'A2', description: 'changed', guidelines: 'New rules' });
      expect(partial.json().tools).toHaveLength(2);

      const del = await t.app.inject({ method: 'DELETE', url: agentUrl(a.id), headers: auth });
      expect(del.statusCode).toBe(204);
      expect(del.body).toBe('');
      const after = await t.app.inject({ method: 'GET', url: `${agentUrl(a.id)}/agent`, headers: auth });
      expect(after.statusCode).toBe(404);
      expect(after.json()).toEqual({ detail: 'Agent not found', code: 'not_found' });
      expect(
        await t.db.kysely.selectFrom('agent_tools').selectAll().where('agent_id', '=', a.id).execute(),
      ).toEqual([]);
      const actions = (
        await t.db.kysely.selectFrom('audit_events').select('action').orderBy('id').execute()
      ).map((r) => r.action);
      expect(actions).toEqual([
        // Signing in from a browser that entered the access code.
        'access_code.success',
        'user.admit',
        'user.sign_in',
        'agent.create',
        'agent.create',
        'agent.update',
        'agent.update',
        'agent.delete',
      ]);
    });

    it('stores up to four trimmed starters, changes and clears them, and keeps them in versions and export', async () => {
      const created = await create({ name: 'A', description: 'd', starters: ['  What is 12 × 7? ', 'Hi'] });
      expect(created.statusCode).toBe(201);
      const agent = created.json();
      expect(agent.starters).toEqual(['What is 12 × 7?', 'Hi']);
      const patch = (payload: object) =>
        t.app.inject({ method: 'PATCH', url: agentUrl(agent.id), headers: auth, payload });
      // A PATCH without starters keeps them.
      expect((await patch({ name: 'A2' })).json().starters).toEqual(['What is 12 × 7?', 'Hi']);
      const four = ['one', 'two', 'three', 'x'.repeat(AGENT_LIMITS.starter)];
      expect((await patch({ starters: four })).json().starters).toEqual(four);
      const got = await t.app.inject({ method: 'GET', url: `${agentUrl(agent.id)}/agent`, headers: auth });
      expect(got.json().starters).toEqual(four);
      const exported = await t.app.inject({
        method: 'GET',
        url: `${agentUrl(agent.id)}/export`,
        headers: auth,
      });
      expect(exported.json().agent.starters).toEqual(four);
      const imported = await t.app.inject({
        method: 'POST',
        url: `${AGENTS}import`,
        headers: auth,
        payload: exported.json(),
      });
      expect(imported.json().agent.starters).toEqual(four);
      expect((await patch({ starters: null })).json().starters).toEqual([]);
      const stored = await t.db.kysely
        .selectFrom('agents')
        .select('starters')
        .where('id', '=', agent.id)
        .executeTakeFirstOrThrow();
      expect(stored.starters).toBeNull();
      const versions = await t.app.inject({
        method: 'GET',
        url: `${agentUrl(agent.id)}/versions`,
        headers: auth,
      });
      expect(versions.json().map((v: { snapshot: { starters: string[] } }) => v.snapshot.starters)).toEqual([
        [],
        four,
        ['What is 12 × 7?', 'Hi'],
        ['What is 12 × 7?', 'Hi'],
      ]);
      const restored = await t.app.inject({
        method: 'POST',
        url: `${agentUrl(agent.id)}/versions/1/restore`,
        headers: auth,
      });
      expect(restored.json().starters).toEqual(['What is 12 × 7?', 'Hi']);
    });

    it('stores the normalised embed origins, refuses other texts naming the field, and keeps them out of versions and export', async () => {
      const created = await create({
        name: 'Site helper',
        description: 'd',
        embed_origins: ['https://Shop.Example:443/', 'http://localhost:5173', 'https://shop.example'],
      });
      expect(created.statusCode).toBe(201);
      const agent = created.json();
      expect(agent.embed_origins).toEqual(['https://shop.example', 'http://localhost:5173']);
      const patch = (payload: object) =>
        t.app.inject({ method: 'PATCH', url: agentUrl(agent.id), headers: auth, payload });
      expect((await patch({ name: 'Renamed' })).json().embed_origins).toEqual(agent.embed_origins);
      for (const bad of [
        ['http://shop.example'],
        ['https://shop.example/path'],
        ['https://shop.example?x=1'],
        ['https://user:pw@shop.example'],
        ['javascript:alert(1)'],
        ['*'],
        'https://shop.example',
        Array.from({ length: 21 }, (_, i) => `https://s${i}.example`),
      ]) {
        const res = await patch({ embed_origins: bad });
        expect(res.statusCode, JSON.stringify(bad)).toBe(422);
        expect(res.json().detail[0].loc.slice(0, 2)).toEqual(['body', 'embed_origins']);
      }
      expect((await patch({ embed_origins: ['https://other.example'] })).json().embed_origins).toEqual([
        'https://other.example',
      ]);
      const exported = await t.app.inject({
        method: 'GET',
        url: `${agentUrl(agent.id)}/export`,
        headers: auth,
      });
      expect(exported.body).not.toContain('other.example');
      const versions = await t.app.inject({
        method: 'GET',
        url: `${agentUrl(agent.id)}/versions`,
        headers: auth,
      });
      expect(versions.body).not.toContain('example');
      expect((await patch({ embed_origins: [] })).json().embed_origins).toEqual([]);
      const stored = await t.db.kysely
        .selectFrom('agents')
        .select('embed_origins')
        .where('id', '=', agent.id)
        .executeTakeFirstOrThrow();
      expect(stored.embed_origins).toBeNull();
    });

    it('lists every field of every agent in the contract’s shape, escaping text and keeping tool order', async () => {
      const empty = await t.app.inject({ method: 'GET', url: AGENTS, headers: auth });
      expect(empty.statusCode).toBe(200);
      expect(empty.headers['content-type']).toMatch(/^application\/json/);
      expect(empty.json()).toEqual([]);

      // Text a JSON writer must escape: quotes, backslashes, control characters, non-ASCII.
      const tricky = 'Say "hi" \\ tab\there\nnew line — 日本語 🚀 </script>';
      const first = (
        await create({
          name: tricky,
          description: 'd1',
          guidelines: tricky,
          starters: [tricky, 'What is 12 × 7?'],
          tool_ids: [gmail.actionIds[2], slack.actionIds[0], gmail.actionIds[0]],
        })
      ).json();
      const second = (await create({ name: 'Second', description: 'd2', tool_ids: [] })).json();

      const list = await t.app.inject({ method: 'GET', url: AGENTS, headers: auth });
      expect(list.statusCode).toBe(200);
      expect(list.headers['content-type']).toMatch(/^application\/json/);
      const body = list.json();
      expect(agentListSchema.parse(body)).toEqual(body);
      expect(body).toEqual([
        {
          id: first.id,
          name: tricky,
          description: 'd1',
          guidelines: tricky,
          icon: null,
          color: null,
          starters: [tricky, 'What is 12 × 7?'],
          embed_origins: [],
          model_id: null,
          temperature: null,
          model_available: true,
          allow_unattended_writes: false,
          api_writes: 'approve',
          tools: [
            {
              id: gmail.actionIds[2],
              display_name: 'Gmail action 2',
              name: 'GMAIL_ACTION_2',
              description: 'Does thing 2 in Gmail',
              logo: 'https://logos.example/gmail.svg',
              app_name: 'Gmail',
              service_id: gmail.serviceId,
              needs_reconnecting: true,
            },
            {
              id: slack.actionIds[0],
              display_name: 'Slack action 0',
              name: 'SLACK_ACTION_0',
              description: 'Does thing 0 in Slack',
              logo: null,
              app_name: 'Slack',
              service_id: slack.serviceId,
              needs_reconnecting: true,
            },
            {
              id: gmail.actionIds[0],
              display_name: 'Gmail action 0',
              name: 'GMAIL_ACTION_0',
              description: 'Does thing 0 in Gmail',
              logo: 'https://logos.example/gmail.svg',
              app_name: 'Gmail',
              service_id: gmail.serviceId,
              needs_reconnecting: true,
            },
          ],
        },
        {
          id: second.id,
          name: 'Second',
          description: 'd2',
          guidelines: null,
          icon: null,
          color: null,
          starters: [],
          embed_origins: [],
          model_id: null,
          temperature: null,
          model_available: true,
          allow_unattended_writes: false,
          api_writes: 'approve',
          tools: [],
        },
      ]);
      // The list and the single-agent call describe an agent identically.
      const got = await t.app.inject({ method: 'GET', url: `${agentUrl(first.id)}/agent`, headers: auth });
      expect(got.json()).toEqual(body[0]);
    });

    it('answers an unchanged list with 304 for its ETag, and a changed one with a new ETag', async () => {
      const list = (headers: Record<string, string> = {}) =>
        t.app.inject({ method: 'GET', url: AGENTS, headers: { ...auth, ...headers } });
      expect(
        (await create({ name: 'First', description: 'one', tool_ids: gmail.actionIds })).statusCode,
      ).toBe(201);
      const first = await list();
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe('private, no-cache');
      const etag = first.headers.etag as string;
      // Weak: the same list goes out plain or compressed.
      expect(etag).toMatch(/^W\/"[\w.-]+"$/);

      const again = await list({ 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');

      expect((await create({ name: 'Second', description: 'two', tool_ids: [] })).statusCode).toBe(201);
      const changed = await list({ 'if-none-match': etag });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect(agentListSchema.parse(changed.json()).map((a) => a.name)).toEqual(['First', 'Second']);

      // The services list revalidates the same way.
      const services = await t.app.inject({ method: 'GET', url: '/backend/api/v1/services/', headers: auth });
      expect(services.headers.etag).toMatch(/^"[\w+/=-]+"$/);
      const unchanged = await t.app.inject({
        method: 'GET',
        url: '/backend/api/v1/services/',
        headers: { ...auth, 'if-none-match': services.headers.etag as string },
      });
      expect(unchanged.statusCode).toBe(304);
    });

    it('pages the list with limit and cursor, naming the next page in a Link header', async () => {
      for (const name of ['A', 'B', 'C'])
        expect((await create({ name, description: name, tool_ids: gmail.actionIds })).statusCode).toBe(201);
      // Bob's agent sits between Alice's ids, and no page of Alice's may show it.
      const { auth: bob } = await signInAs(t, issuer, { sub: 'bob' });
      expect((await create({ name: 'Bob', description: 'b', tool_ids: [] }, bob)).statusCode).toBe(201);
      expect((await create({ name: 'D', description: 'd', tool_ids: [] })).statusCode).toBe(201);
      const get = (url: string) => t.app.inject({ method: 'GET', url, headers: auth });

      const whole = await get(AGENTS);
      expect(whole.headers.link).toBeUndefined();
      const all = agentListSchema.parse(whole.json());
      expect(all.map((a) => a.name)).toEqual(['A', 'B', 'C', 'D']);

      const names: string[][] = [];
      let url: string | undefined = `${AGENTS}?limit=2`;
      while (url) {
        const page = await get(url);
        expect(page.statusCode).toBe(200);
        const agents = agentListSchema.parse(page.json());
        names.push(agents.map((a) => a.name));
        // Each agent on a page is the one the whole list shows.
        for (const agent of agents) expect(agent).toEqual(all.find((a) => a.id === agent.id));
        url = /^<([^>]+)>; rel="next"$/.exec((page.headers.link as string | undefined) ?? '')?.[1];
      }
      // The page after the last full one is empty and names no other.
      expect(names).toEqual([['A', 'B'], ['C', 'D'], []]);

      const afterB = agentListSchema.parse((await get(`${AGENTS}?cursor=${all[1]!.id}`)).json());
      expect(afterB.map((a) => a.name)).toEqual(['C', 'D']);
      const short = await get(`${AGENTS}?limit=5`);
      expect(short.headers.link).toBeUndefined();
      expect(agentListSchema.parse(short.json())).toHaveLength(4);

      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['limit=two', 'limit'],
        ['limit=1.5', 'limit'],
        ['cursor=-1', 'cursor'],
        ['cursor=abc', 'cursor'],
      ]) {
        const bad = await get(`${AGENTS}?${query}`);
        expect(bad.statusCode, query).toBe(422);
        expect(bad.json().detail[0].loc, query).toEqual(['querystring', field]);
      }
    });

    it('records a duplicate with the agent it was copied from, and refuses an unknown source', async () => {
      const a = (await create({ name: 'A', description: 'first', tool_ids: [gmail.actionIds[0]] })).json();
      const copy = await create({
        name: 'A (Copy)',
        description: 'first',
        tool_ids: [gmail.actionIds[0]],
        duplicated_from: a.id,
      });
      expect(copy.statusCode).toBe(201);
      const event = await t.db.kysely
        .selectFrom('audit_events')
        .selectAll()
        .where('action', '=', 'agent.duplicate')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(event.detail)).toEqual({ tools: 1, duplicated_from: a.id });
      const bad = await create({ name: 'X', description: 'y', duplicated_from: a.id + 1000 });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().detail[0].loc).toEqual(['body', 'duplicated_from']);
    });

    it('refuses unknown tool ids, naming them, on create and update', async () => {
      const res = await create({
        name: 'n',
        description: 'd',
        tool_ids: [gmail.actionIds[0], 999_999, 888_888],
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        detail: [
          { loc: ['body', 'tool_ids'], msg: 'Unknown tool ids: 999999, 888888', type: 'unknown_tool' },
        ],
        code: 'validation_failed',
      });
      const a = (await create({ name: 'n', description: 'd', tool_ids: [gmail.actionIds[0]] })).json();
      const upd = await t.app.inject({
        method: 'PATCH',
        url: agentUrl(a.id),
        headers: auth,
        payload: { tool_ids: [424242] },
      });
      expect(upd.statusCode).toBe(422);
      expect(upd.json().detail[0].msg).toContain('424242');
      const stored = await t.app.inject({ method: 'GET', url: `${agentUrl(a.id)}/agent`, headers: auth });
      expect(stored.json()).toEqual(a);
    });

    it('stores an icon and a colour, changes and clears them, and refuses ones outside the sets', async () => {
      const a = (await create({ name: 'Mail', description: 'd', icon: '📬', color: 'purple' })).json();
      expect(a).toMatchObject({ icon: '📬', color: 'purple' });
      const plain = (await create({ name: 'Plain', description: 'd' })).json();
      expect(plain).toMatchObject({ icon: null, color: null });
      const patch = (payload: object) =>
        t.app.inject({ method: 'PATCH', url: agentUrl(a.id), headers: auth, payload });
      expect((await patch({ icon: 'avatar:beam' })).json()).toMatchObject({
        icon: 'avatar:beam',
        color: 'purple',
      });
      // A flag and a skin-toned emoji are one grapheme each.
      expect((await patch({ icon: '🇫🇷' })).json().icon).toBe('🇫🇷');
      expect((await patch({ icon: '👍🏽' })).json().icon).toBe('👍🏽');
      expect((await patch({ icon: null, color: null })).json()).toMatchObject({ icon: null, color: null });
      for (const [payload, field] of [
        [{ icon: 'ab' }, 'icon'],
        [{ icon: '📬📬' }, 'icon'],
        [{ icon: 'avatar:nope' }, 'icon'],
        [{ color: 'chartreuse' }, 'color'],
      ] as const) {
        const res = await patch(payload);
        expect(res.statusCode).toBe(422);
        expect(res.json().detail[0].loc).toEqual(['body', field]);
      }
      const listed = (await t.app.inject({ method: 'GET', url: AGENTS, headers: auth })).json();
      expect(agentListSchema.parse(listed).map((x) => [x.name, x.icon, x.color])).toEqual([
        ['Mail', null, null],
        ['Plain', null, null],
      ]);
    });

    it('marks a tool whose service the caller is not connected to as needing reconnecting', async () => {
      const connect = (status: string) =>
        t.db.kysely
          .insertInto('connections')
          .values({
            user_id: userId,
            service_id: gmail.serviceId,
            status,
            external_id: null,
            credentials: null,
            created_at: new Date().toISOString(),
            updated_at: new Date().toISOString(),
          })
          .execute();
      await connect('ACTIVE');
      const a = (
        await create({ name: 'n', description: 'd', tool_ids: [gmail.actionIds[0], slack.actionIds[0]] })
      ).json();
      const flags = async () => {
        const list = agentListSchema.parse(
          (await t.app.inject({ method: 'GET', url: AGENTS, headers: auth })).json(),
        );
        const one = (
          await t.app.inject({ method: 'GET', url: `${agentUrl(a.id)}/agent`, headers: auth })
        ).json();
        expect(one).toEqual(list[0]);
        return list[0]!.tools.map((tool) => [tool.app_name, tool.service_id, tool.needs_reconnecting]);
      };
      expect(await flags()).toEqual([
        ['Gmail', gmail.serviceId, false],
        ['Slack', slack.serviceId, true],
      ]);
      // Disconnected (or expired, as a tool call that finds its token refused records it): the tool
      // stays attached and says so.
      await createConnectionStore(t.db).recordUse(userId, gmail.serviceId, {
        at: new Date().toISOString(),
        change: { status: 'EXPIRED' },
      });
      expect((await flags()).map(([, , flag]) => flag)).toEqual([true, true]);
      // Another user's active connection does not count for Alice.
      const { id: bobId } = await signInAs(t, issuer, { sub: 'bob' });
      await t.db.kysely
        .insertInto('connections')
        .values({
          user_id: bobId,
          service_id: slack.serviceId,
          status: 'ACTIVE',
          external_id: null,
          credentials: null,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute();
      expect((await flags()).map(([, , flag]) => flag)).toEqual([true, true]);
    });

    it('treats another user’s private service tools as unknown', async () => {
      const { auth: bobToken, id: bobId } = await signInAs(t, issuer, { sub: 'bob' });
      const bobs = await seedService(t.db, { name: 'BobMcp', ownerUserId: bobId, actions: 1 });
      const res = await create({ name: 'n', description: 'd', tool_ids: [bobs.actionIds[0]] });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0].msg).toBe(`Unknown tool ids: ${bobs.actionIds[0]}`);
      // Bob can attach his own.
      expect(
        (await create({ name: 'n', description: 'd', tool_ids: [bobs.actionIds[0]] }, bobToken)).statusCode,
      ).toBe(201);
    });

    describe('triggers', () => {
      it('stores a pending trigger event and answers 202 with its id', async () => {
        const a = (await create({ name: 'n', description: 'd' })).json();
        const res = await t.app.inject({
          method: 'POST',
          url: `${agentUrl(a.id)}/triggers/new-email`,
          headers: auth,
          payload: { from: 'x@example.com', subject: 'Hi' },
        });
        expect(res.statusCode).toBe(202);
        const row = await t.db.kysely
          .selectFrom('trigger_events')
          .selectAll()
          .where('id', '=', res.json().id)
          .executeTakeFirstOrThrow();
        expect(row).toMatchObject({
          user_id: userId,
          agent_id: a.id,
          trigger_id: 'new-email',
          status: 'pending',
        });
        expect(JSON.parse(row.payload)).toEqual({ from: 'x@example.com', subject: 'Hi' });
      });

      it('queues an event once when the sender retries with the same Idempotency-Key', async () => {
        const a = (await create({ name: 'n', description: 'd' })).json();
        const send = () =>
          t.app.inject({
            method: 'POST',
            url: `${agentUrl(a.id)}/triggers/invoice-paid`,
            headers: { ...auth, 'idempotency-key': 'invoice-7781' },
            payload: { invoice: 7781 },
          });
        const [first, second] = [await send(), await send()];
        expect(first.statusCode).toBe(202);
        expect(second.statusCode).toBe(202);
        expect(second.json()).toEqual(first.json());
        const events = await t.db.kysely.selectFrom('trigger_events').select('id').execute();
        expect(events).toHaveLength(1);
      });

      it('refuses a body that is not a JSON object, a bad trigger id and a body over 64 KB', async () => {
        const a = (await create({ name: 'n', description: 'd' })).json();
        const before = await tableCounts(t.db);
        for (const payload of ['[1,2]', '"text"', '12', 'null']) {
          const res = await t.app.inject({
            method: 'POST',
            url: `${agentUrl(a.id)}/triggers/t`,
            headers: { ...auth, 'content-type': 'application/json' },
            payload,
          });
          expect(res.statusCode, payload).toBeGreaterThanOrEqual(400);
          expect(res.statusCode, payload).toBeLessThan(500);
        }
        const badId = await t.app.inject({
          method: 'POST',
          url: `${agentUrl(a.id)}/triggers/a%20b`,
          headers: auth,
          payload: {},
        });
        expect(badId.statusCode).toBe(422);
        expect(badId.json().detail[0].loc).toEqual(['params', 'trigger_id']);
        const big = await t.app.inject({
          method: 'POST',
          url: `${agentUrl(a.id)}/triggers/t`,
          headers: auth,
          payload: { blob: 'x'.repeat(70_000) },
        });
        expect(big.statusCode).toBe(413);
        expect(big.json()).toEqual({ detail: 'Request body is too large', code: 'payload_too_large' });
        expect(await tableCounts(t.db)).toEqual(before);
      });
    });
  });

  // Refusals that change nothing (the validation cases check that themselves) share one app.
  describe('refusing bad requests', () => {
    beforeAll(setUp);
    afterAll(tearDown);

    it.each([
      ['blank name', { name: '   ', description: 'd' }, ['body', 'name']],
      ['missing name', { description: 'd' }, ['body', 'name']],
      ['blank description', { name: 'n', description: '\n\t ' }, ['body', 'description']],
      ['missing description', { name: 'n' }, ['body', 'description']],
      ['name too long', { name: 'x'.repeat(AGENT_LIMITS.name + 1), description: 'd' }, ['body', 'name']],
      [
        'description too long',
        { name: 'n', description: 'x'.repeat(AGENT_LIMITS.description + 1) },
        ['body', 'description'],
      ],
      [
        'guidelines too long',
        { name: 'n', description: 'd', guidelines: 'x'.repeat(AGENT_LIMITS.guidelines + 1) },
        ['body', 'guidelines'],
      ],
      [
        'too many tools',
        {
          name: 'n',
          description: 'd',
          tool_ids: Array.from({ length: AGENT_LIMITS.toolIds + 1 }, (_, i) => i + 1),
        },
        ['body', 'tool_ids'],
      ],
      ['tool id not a number', { name: 'n', description: 'd', tool_ids: ['1'] }, ['body', 'tool_ids', 0]],
      ['tool id out of range', { name: 'n', description: 'd', tool_ids: [2 ** 31] }, ['body', 'tool_ids', 0]],
      ['name with NUL', { name: 'a\u0000b', description: 'd' }, ['body', 'name']],
      ['name not a string', { name: 42, description: 'd' }, ['body', 'name']],
      [
        'too many starters',
        { name: 'n', description: 'd', starters: ['a', 'b', 'c', 'd', 'e'] },
        ['body', 'starters'],
      ],
      [
        'starter too long',
        { name: 'n', description: 'd', starters: ['ok', 'x'.repeat(AGENT_LIMITS.starter + 1)] },
        ['body', 'starters', 1],
      ],
      ['blank starter', { name: 'n', description: 'd', starters: ['  '] }, ['body', 'starters', 0]],
      ['starter not a string', { name: 'n', description: 'd', starters: [7] }, ['body', 'starters', 0]],
      ['starters not a list', { name: 'n', description: 'd', starters: 'hi' }, ['body', 'starters']],
      ['unknown field id', { id: 7, name: 'n', description: 'd' }, ['body', 'id']],
      ['unknown field user_id', { user_id: 7, name: 'n', description: 'd' }, ['body', 'user_id']],
      ...(['files', 'filepath', 'path', 'url'] as const).map(
        (field) =>
          [
            `E2: a file field on a JSON route (${field})`,
            {
              name: 'n',
              description: 'd',
              [field]: field === 'files' ? [{ path: '/etc/passwd' }] : '/etc/passwd',
            },
            ['body', field],
          ] as [string, Record<string, unknown>, string[]],
      ),
    ])('refuses %s with 422 naming the field and stores nothing', async (_label, body, loc) => {
      const before = await tableCounts(t.db);
      const res = await create(body);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc })]));
      expect(await tableCounts(t.db)).toEqual(before);
    });

    it('answers 404 for an agent that does not exist on every verb', async () => {
      for (const [method, url, payload] of [
        ['GET', `${agentUrl(12345)}/agent`, undefined],
        ['PATCH', agentUrl(12345), { name: 'x' }],
        ['DELETE', agentUrl(12345), undefined],
        ['POST', `${agentUrl(12345)}/triggers/daily`, { a: 1 }],
      ] as const) {
        const res = await t.app.inject({ method, url, headers: auth, payload });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toEqual({ detail: 'Agent not found', code: 'not_found' });
      }
    });

    it.each(['abc', '0', '-1', '1.5', '99999999999999999999', '2147483648', '%00', '1%2F2'])(
      'answers 422 (never 500) for the path id %s',
      async (id) => {
        for (const [method, url] of [
          ['GET', `${agentUrl(id)}/agent`],
          ['PATCH', agentUrl(id)],
          ['DELETE', agentUrl(id)],
          ['POST', `${agentUrl(id)}/triggers/t`],
        ] as const) {
          const res = await t.app.inject({
            method,
            url,
            headers: auth,
            payload: method === 'PATCH' || method === 'POST' ? {} : undefined,
          });
          expect(res.statusCode, `${method} ${url}`).toBe(422);
          expect(res.json().detail[0].loc).toEqual(['params', 'agent_id']);
        }
      },
    );

    it('answers 401 without a token on every agent call', async () => {
      for (const [method, url] of [
        ['GET', AGENTS],
        ['POST', AGENTS],
        ['GET', `${agentUrl(1)}/agent`],
        ['PATCH', agentUrl(1)],
        ['DELETE', agentUrl(1)],
        ['POST', `${agentUrl(1)}/triggers/t`],
      ] as const) {
        const res = await t.app.inject({
          method,
          url,
          payload: method === 'GET' || method === 'DELETE' ? undefined : {},
        });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json()).toEqual({ detail: 'Not authenticated', code: 'unauthorized' });
        expect(res.headers['www-authenticate']).toBe('Bearer');
      }
    });
  });
});
