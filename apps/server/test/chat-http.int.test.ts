import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attach,
  calculatorSchema,
  chatHarness,
  ORIGIN,
  seedAction,
  seedAgent,
  streamedText,
  uiChunks,
  type ChatHarness,
} from './support/chat-fixtures.ts';
import { createUser } from './support/users.ts';

/** The /chainlit HTTP surface: sign-in, cookie, CSRF, frame headers, threads and isolation (B1). */
describe('chat service HTTP', () => {
  let h: ChatHarness;
  let alice: number;
  let bob: number;
  let aliceAgent: number;
  let bobAgent: number;

  beforeAll(async () => {
    h = await chatHarness();
    alice = await createUser(h.db, 'alice');
    bob = await createUser(h.db, 'bob');
    aliceAgent = await seedAgent(h.db, alice, 'Alice agent');
    bobAgent = await seedAgent(h.db, bob, 'Bob agent');
    const add = await seedAction(h.db, {
      name: 'calculator_add',
      description: 'Add two numbers',
      effect: 'read',
      schema: calculatorSchema,
      displayName: 'Add',
    });
    await attach(h.db, aliceAgent, add);
  });
  afterAll(() => h.t.close());

  const post = (url: string, headers: Record<string, string>, payload?: object) =>
    h.t.app.inject({ method: 'POST', url, headers, payload });
  /** A thread of Alice's with her agent. */
  const insertThread = (id: string, name: string, at: string) =>
    h.db.kysely
      .insertInto('threads')
      .values({ id, user_id: alice, agent_id: aliceAgent, name, created_at: at, updated_at: at })
      .execute();

  it('signs in from the bearer token and agent header, with a strict httpOnly cookie scoped to /chainlit', async () => {
    const res = await post('/chainlit/auth/header', {
      authorization: `Bearer access-${alice}`,
      'agent-id': String(aliceAgent),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const cookie = res.cookies.find((c) => c.name === 'cadre_chat_session')!;
    expect(cookie).toMatchObject({ path: '/chainlit', httpOnly: true, sameSite: 'Strict' });
    expect(cookie.value.length).toBeGreaterThanOrEqual(40);
    // Only a hash of the value is stored.
    const rows = await h.db.kysely.selectFrom('chat_sessions').selectAll().execute();
    expect(rows.some((r) => r.id_hash === cookie.value)).toBe(false);
  });

  it.each([
    ['no token', {}],
    ['a bad token', { authorization: 'Bearer nope', 'x-agent-id': '1' }],
    ['no agent header', { authorization: 'Bearer access-1' }],
    ['a non-numeric agent', { authorization: 'Bearer access-1', 'x-agent-id': 'abc' }],
  ])('refuses sign-in with %s: 401 credentialssignin', async (_name, headers) => {
    const res = await post('/chainlit/auth/header', headers as Record<string, string>);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'credentialssignin', code: 'unauthorized' });
    expect(res.cookies).toHaveLength(0);
  });

  it.each([
    ["another user's agent", () => bobAgent],
    ['an agent that does not exist', () => 999_999],
  ])('answers sign-in to %s with 404 naming the agent, not the sign-in', async (_name, agent) => {
    const res = await post('/chainlit/auth/header', {
      authorization: `Bearer access-${alice}`,
      'x-agent-id': String(agent()),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'This agent does not exist or is not yours', code: 'not_found' });
    expect(res.cookies).toHaveLength(0);
  });

  it('sends frame-ancestors self and SAMEORIGIN under /chainlit only', async () => {
    const res = await h.t.app.inject({ method: 'GET', url: '/chainlit/session' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(res.headers['content-security-policy']).not.toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    const api = await h.t.app.inject({ method: 'GET', url: '/backend/api/v1/public/health/healthcheck' });
    expect(api.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('returns session info: agent, suggested prompts and the offline flag', async () => {
    const headers = await h.signIn(alice, aliceAgent);
    const res = await h.t.app.inject({
      method: 'GET',
      url: '/chainlit/session',
      headers: { cookie: headers.cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      user: { id: alice },
      agent: { id: aliceAgent, name: 'Alice agent', tools: [{ name: 'calculator_add', effect: 'read' }] },
      model: { offline: true, configured: true },
      via: 'cookie',
    });
    expect(res.json().agent.suggestedPrompts.length).toBeGreaterThan(0);
    // How the agent looks: the header shows it; unset until its owner picks one.
    expect(res.json().agent).toMatchObject({ icon: null, color: null });
    await h.t.db.kysely
      .updateTable('agents')
      .set({ icon: 'avatar:beam', color: 'blue' })
      .where('id', '=', aliceAgent)
      .execute();
    const again = await h.t.app.inject({
      method: 'GET',
      url: '/chainlit/session',
      headers: { cookie: headers.cookie },
    });
    expect(again.json().agent).toMatchObject({ icon: 'avatar:beam', color: 'blue' });
  });

  it("offers the owner's starters in the empty chat, else requests made from the tools, never their descriptions", async () => {
    const startersOf = async (user: number, agent: number) => {
      const { cookie } = await h.signIn(user, agent);
      const res = await h.t.app.inject({ method: 'GET', url: '/chainlit/session', headers: { cookie } });
      return res.json().agent.suggestedPrompts as string[];
    };
    const starters = () => startersOf(alice, aliceAgent);
    // A request with real numbers that the offline model answers with the tool (not "Calculator
    // add a: 2, b: 2", and not the tool's description).
    expect(await starters()).toEqual(['Add 9 and 33']);
    // An agent without tools has no example to offer: it is asked what it can do.
    expect(await startersOf(bob, bobAgent)).toEqual(['What can you do?']);
    const setStarters = (value: string | null) =>
      h.db.kysely.updateTable('agents').set({ starters: value }).where('id', '=', aliceAgent).execute();
    await setStarters(JSON.stringify(['What is 12 × 7?', 'Add 9 and 33']));
    try {
      expect(await starters()).toEqual(['What is 12 × 7?', 'Add 9 and 33']);
    } finally {
      await setStarters(null);
    }
  });

  it("searches the caller's threads with this agent by name and message text, ignoring case, never another's", async () => {
    const at = new Date().toISOString();
    const seeded: string[] = [];
    const seed = async (userId: number, agentId: number, name: string, text: string) => {
      const id = crypto.randomUUID();
      seeded.push(id);
      await h.db.kysely
        .insertInto('threads')
        .values({ id, user_id: userId, agent_id: agentId, name, created_at: at, updated_at: at })
        .execute();
      await h.db.kysely
        .insertInto('messages')
        .values({
          id: crypto.randomUUID(),
          thread_id: id,
          role: 'user',
          parts: JSON.stringify([{ type: 'text', text }]),
          status: 'complete',
          created_at: at,
        })
        .execute();
      return id;
    };
    try {
      const byName = await seed(alice, aliceAgent, 'Tent refund', 'hello');
      const byText = await seed(alice, aliceAgent, 'Monday', 'Where is my TENT order?');
      const literal = await seed(alice, aliceAgent, '100% sure', 'a_b');
      await seed(alice, aliceAgent, 'Other', 'nothing here');
      const quoted = await seed(alice, aliceAgent, 'Bank', 'Remind me: "call the bank" on Monday');
      await seed(bob, bobAgent, 'Tent of Bob', 'tent');
      const a = await h.signIn(alice, aliceAgent);
      const search = async (q: string, headers = a) => {
        const res = await h.t.app.inject({
          method: 'GET',
          url: `/chainlit/threads?q=${encodeURIComponent(q)}`,
          headers: { cookie: headers.cookie },
        });
        expect(res.statusCode).toBe(200);
        return (res.json().data as { id: string }[]).map((t) => t.id).sort();
      };
      expect(await search('tent')).toEqual([byName, byText].sort());
      // % and _ are matched as themselves, not as wildcards.
      expect(await search('0%')).toEqual([literal]);
      expect(await search('a_b')).toEqual([literal]);
      expect(await search('zzz')).toEqual([]);
      // The words of the conversation, not the keys of the stored JSON around them.
      for (const q of ['text', 'type', 'parts', '"type"']) expect(await search(q), q).toEqual([]);
      // A quoted phrase, typed as the person wrote it, finds its thread.
      expect(await search('"call the bank"')).toEqual([quoted]);
      const b = await h.signIn(bob, bobAgent);
      expect(await search('tent', b)).toHaveLength(1);
      const long = await h.t.app.inject({
        method: 'GET',
        url: `/chainlit/threads?q=${'x'.repeat(201)}`,
        headers: { cookie: a.cookie },
      });
      expect(long.statusCode).toBe(422);
      expect(JSON.stringify(long.json())).toContain('q');
    } finally {
      // The other tests here count threads: the searched ones go.
      await h.db.kysely.deleteFrom('threads').where('id', 'in', seeded).execute();
    }
  });

  it('rates an answer up or down with a comment, replaces and takes it back; the rating goes with the thread', async () => {
    const at = new Date().toISOString();
    const threadId = crypto.randomUUID();
    await insertThread(threadId, 'Rated', at);
    const message = (id: string, role: string) => ({
      id,
      thread_id: threadId,
      role,
      parts: JSON.stringify([{ type: 'text', text: 'hi' }]),
      status: 'complete',
      created_at: at,
    });
    const [question, answer] = [crypto.randomUUID(), crypto.randomUUID()];
    await h.db.kysely
      .insertInto('messages')
      .values([message(question, 'user'), message(answer, 'assistant')])
      .execute();
    const a = await h.signIn(alice, aliceAgent);
    const rate = (id: string, payload?: object, method: 'PUT' | 'DELETE' = 'PUT') =>
      h.t.app.inject({ method, url: `/chainlit/messages/${id}/feedback`, headers: a, payload });

    const up = await rate(answer, { rating: 'up' });
    expect(up.statusCode).toBe(200);
    expect(up.json()).toEqual({
      messageId: answer,
      rating: 'up',
      comment: null,
      updatedAt: expect.any(String),
    });
    const down = await rate(answer, { rating: 'down', comment: '  Wrong total ' });
    expect(down.json()).toMatchObject({ rating: 'down', comment: 'Wrong total' });
    const rows = await h.db.kysely
      .selectFrom('message_feedback')
      .selectAll()
      .where('message_id', '=', answer)
      .execute();
    expect(rows).toEqual([
      expect.objectContaining({ user_id: alice, rating: 'down', comment: 'Wrong total' }),
    ]);

    const bad = await rate(answer, { rating: 'meh' });
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json())).toContain('rating');
    expect((await rate(answer, { rating: 'up', comment: 'x'.repeat(1001) })).statusCode).toBe(422);
    // Only answers can be rated; an unknown id is simply not found.
    expect((await rate(question, { rating: 'up' })).statusCode).toBe(404);
    expect((await rate('nope', { rating: 'up' })).statusCode).toBe(404);

    expect((await rate(answer, undefined, 'DELETE')).statusCode).toBe(204);
    expect(
      await h.db.kysely.selectFrom('message_feedback').selectAll().where('message_id', '=', answer).execute(),
    ).toEqual([]);
    await rate(answer, { rating: 'up' });
    const gone = await h.t.app.inject({ method: 'DELETE', url: `/chainlit/threads/${threadId}`, headers: a });
    expect(gone.statusCode).toBe(204);
    expect(
      await h.db.kysely.selectFrom('message_feedback').selectAll().where('message_id', '=', answer).execute(),
    ).toEqual([]);
  });

  it('H2: refuses state-changing cookie calls without the CSRF header or from another origin', async () => {
    const headers = await h.signIn(alice, aliceAgent);
    const noHeader = await post('/chainlit/threads', { cookie: headers.cookie, origin: ORIGIN }, {});
    expect(noHeader.statusCode).toBe(403);
    const evil = await post('/chainlit/threads', { ...headers, origin: 'https://evil.example' }, {});
    expect(evil.statusCode).toBe(403);
    const noOrigin = await post(
      '/chainlit/threads',
      { cookie: headers.cookie, 'x-requested-with': 'cadre-chat' },
      {},
    );
    expect(noOrigin.statusCode).toBe(403);
    const ok = await post('/chainlit/threads', headers, {});
    expect(ok.statusCode).toBe(201);
    expect(
      await h.db.kysely.selectFrom('threads').select('id').where('user_id', '=', alice).execute(),
    ).toHaveLength(1);
  });

  it('rejects unknown fields in bodies with 422', async () => {
    const headers = await h.signIn(alice, aliceAgent);
    const res = await post('/chainlit/threads', headers, { name: 'x', owner: 2 });
    expect(res.statusCode).toBe(422);
  });

  it('logout deletes the session so the cookie stops working', async () => {
    const headers = await h.signIn(alice, aliceAgent);
    const out = await post('/chainlit/logout', headers);
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === 'cadre_chat_session')?.value).toBe('');
    const res = await h.t.app.inject({
      method: 'GET',
      url: '/chainlit/threads',
      headers: { cookie: headers.cookie },
    });
    expect(res.statusCode).toBe(401);
  });

  it('accepts the copilot token instead of the cookie (no CSRF header needed, no cookie set)', async () => {
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/chainlit/threads',
      headers: { authorization: `Bearer copilot-${alice}-${aliceAgent}`, origin: 'https://host.example' },
      payload: { name: 'From copilot' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.cookies).toHaveLength(0);
    const forged = await h.t.app.inject({
      method: 'GET',
      url: '/chainlit/threads',
      headers: { authorization: `Bearer copilot-${alice}-${bobAgent}` },
    });
    expect(forged.statusCode).toBe(401);
  });

  it("pages a thread's messages newest first with limit and cursor, each page oldest first", async () => {
    const threadId = crypto.randomUUID();
    const at = new Date().toISOString();
    await insertThread(threadId, 'Long', at);
    // Two messages share each timestamp, so the page boundary must also order by id.
    const texts = Array.from({ length: 7 }, (_, i) => `message ${i}`);
    await h.db.kysely
      .insertInto('messages')
      .values(
        texts.map((text, i) => ({
          id: `m${i}`,
          thread_id: threadId,
          role: i % 2 ? 'assistant' : 'user',
          parts: JSON.stringify([{ type: 'text', text }]),
          status: 'complete',
          created_at: new Date(Date.parse(at) + Math.floor(i / 2)).toISOString(),
        })),
      )
      .execute();
    const a = await h.signIn(alice, aliceAgent);
    const get = (query: string, headers = a) =>
      h.t.app.inject({ method: 'GET', url: `/chainlit/threads/${threadId}/messages${query}`, headers });
    const ids = (body: { messages: { id: string }[] }) => body.messages.map((m) => m.id);

    const whole = (await get('')).json();
    expect(ids(whole)).toEqual(texts.map((_, i) => `m${i}`));
    expect(whole).not.toHaveProperty('nextCursor');

    const pages: string[][] = [];
    let query = '?limit=3';
    for (;;) {
      const res = await get(query);
      expect(res.statusCode).toBe(200);
      pages.push(ids(res.json()));
      const next = res.json().nextCursor as string | null;
      if (next === null) break;
      query = `?limit=3&cursor=${next}`;
    }
    expect(pages).toEqual([['m4', 'm5', 'm6'], ['m1', 'm2', 'm3'], ['m0']]);

    expect((await get('?limit=0')).statusCode).toBe(422);
    expect((await get('?limit=abc')).json().detail[0].loc).toEqual(['querystring', 'limit']);
    // Bob's session cannot page Alice's thread, even with a cursor from it.
    const b = await h.signIn(bob, bobAgent);
    expect((await get('?limit=3&cursor=m4', b)).statusCode).toBe(404);
  });

  it('pages the thread list newest first with limit and cursor', async () => {
    const agentId = await seedAgent(h.db, alice, 'Pager');
    const base = Date.parse('2026-01-01T00:00:00Z');
    // t1 and t2 were updated in the same millisecond: the page boundary also orders by id.
    const updated = { t0: 0, t1: 5, t2: 5, t3: 9, t4: 2 };
    for (const [id, offset] of Object.entries(updated)) {
      const at = new Date(base + offset).toISOString();
      await h.db.kysely
        .insertInto('threads')
        .values({
          id: `${agentId}-${id}`,
          user_id: alice,
          agent_id: agentId,
          name: id,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    const a = await h.signIn(alice, agentId);
    const list = (query: string) =>
      h.t.app.inject({ method: 'GET', url: `/chainlit/threads${query}`, headers: a });
    const names = (body: { data: { name: string }[] }) => body.data.map((t) => t.name);

    const whole = (await list('')).json();
    expect(names(whole)).toEqual(['t3', 't1', 't2', 't4', 't0']);
    expect(whole).not.toHaveProperty('nextCursor');

    const pages: string[][] = [];
    let query = '?limit=2';
    for (;;) {
      const body = (await list(query)).json();
      pages.push(names(body));
      if (body.nextCursor === null) break;
      query = `?limit=2&cursor=${body.nextCursor}`;
    }
    expect(pages).toEqual([['t3', 't1'], ['t2', 't4'], ['t0']]);
    expect((await list('?limit=1001')).json().detail[0].loc).toEqual(['querystring', 'limit']);
  });

  it("B1: Bob gets 404 for Alice's thread, messages, stop, rename, delete, approvals and turns", async () => {
    const a = await h.signIn(alice, aliceAgent);
    const turn = await post('/chainlit/chat', a, { text: 'add 4 and 5' });
    expect(turn.statusCode).toBe(200);
    const threadId = turn.headers['x-thread-id'] as string;
    const approvalRow = await h.db.kysely
      .insertInto('approvals')
      .values({
        id: crypto.randomUUID(),
        user_id: alice,
        thread_id: threadId,
        run_id: 'r',
        tool_call_id: `call-${crypto.randomUUID()}`,
        action_id: (await h.db.kysely.selectFrom('actions').select('id').executeTakeFirstOrThrow()).id,
        args_hash: 'x',
        args: '{}',
        status: 'pending',
        expires_at: new Date(Date.now() + 60_000).toISOString(),
        created_at: new Date().toISOString(),
        decided_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const b = await h.signIn(bob, bobAgent);
    const calls = [
      h.t.app.inject({ method: 'GET', url: `/chainlit/threads/${threadId}/messages`, headers: b }),
      h.t.app.inject({
        method: 'PATCH',
        url: `/chainlit/threads/${threadId}`,
        headers: b,
        payload: { name: 'mine' },
      }),
      h.t.app.inject({ method: 'DELETE', url: `/chainlit/threads/${threadId}`, headers: b }),
      post(`/chainlit/threads/${threadId}/stop`, b),
      post(`/chainlit/approvals/${approvalRow.id}/approve`, b, {}),
      post(`/chainlit/approvals/${approvalRow.id}/deny`, b, {}),
      post('/chainlit/chat', b, { threadId, text: 'hello' }),
      post('/chainlit/chat', b, {
        id: threadId,
        messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
      }),
    ];
    for (const res of await Promise.all(calls)) expect(res.statusCode).toBe(404);
    const list = await h.t.app.inject({ method: 'GET', url: '/chainlit/threads', headers: b });
    expect(list.json().data).toEqual([]);
    // Alice's thread and approval are untouched.
    const thread = await h.db.kysely
      .selectFrom('threads')
      .selectAll()
      .where('id', '=', threadId)
      .executeTakeFirstOrThrow();
    expect(thread.user_id).toBe(alice);
    expect(thread.name).not.toBe('mine');
    const approval = await h.db.kysely
      .selectFrom('approvals')
      .selectAll()
      .where('id', '=', approvalRow.id)
      .executeTakeFirstOrThrow();
    expect(approval.status).toBe('pending');
    expect(
      await h.db.kysely.selectFrom('messages').select('id').where('thread_id', '=', threadId).execute(),
    ).toHaveLength(2);
  });

  it('lists, renames and deletes threads for the signed-in agent', async () => {
    const a = await h.signIn(alice, aliceAgent);
    const created = await post('/chainlit/threads', a, { name: 'Plans' });
    const id = created.json().id as string;
    const renamed = await h.t.app.inject({
      method: 'PATCH',
      url: `/chainlit/threads/${id}`,
      headers: a,
      payload: { name: 'Trip plans' },
    });
    expect(renamed.json()).toMatchObject({ id, name: 'Trip plans' });
    const list = await h.t.app.inject({ method: 'GET', url: '/chainlit/threads', headers: a });
    expect(list.json().data.map((t: { name: string }) => t.name)).toContain('Trip plans');
    const del = await h.t.app.inject({ method: 'DELETE', url: `/chainlit/threads/${id}`, headers: a });
    expect(del.statusCode).toBe(204);
    const again = await h.t.app.inject({
      method: 'GET',
      url: `/chainlit/threads/${id}/messages`,
      headers: a,
    });
    expect(again.statusCode).toBe(404);
  });

  it('accepts the body useChat sends and streams a UI message stream', async () => {
    const a = await h.signIn(alice, aliceAgent);
    const id = crypto.randomUUID();
    const res = await post('/chainlit/chat', a, {
      id,
      trigger: 'submit-message',
      messages: [
        { id: 'u0', role: 'user', parts: [{ type: 'text', text: 'ignored earlier text' }] },
        { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'add 10 and 20' }] },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-vercel-ai-ui-message-stream']).toBe('v1');
    expect(res.headers['content-type']).toContain('text/event-stream');
    expect(res.headers['x-thread-id']).toBe(id);
    const chunks = uiChunks(res.body);
    // The model's name and the time the answer started, shown on each answer.
    expect(chunks[0]).toMatchObject({
      type: 'start',
      messageMetadata: {
        threadId: id,
        offline: true,
        model: expect.any(String),
        createdAt: expect.any(String),
      },
    });
    expect(chunks.at(-1)).toMatchObject({ type: 'finish' });
    const stored = await h.db.kysely
      .selectFrom('messages')
      .selectAll()
      .where('thread_id', '=', id)
      .orderBy('created_at')
      .execute();
    expect(JSON.parse(stored[0]!.parts)).toEqual([{ type: 'text', text: 'add 10 and 20' }]);
    // A reloaded thread still names the model beside the answer; the person's own message has none.
    const model = (chunks[0] as { messageMetadata: { model: string } }).messageMetadata.model;
    const reloaded = await h.t.app.inject({
      method: 'GET',
      url: `/chainlit/threads/${id}/messages`,
      headers: a,
    });
    const [question, answer] = reloaded.json().messages as { metadata: Record<string, unknown> }[];
    expect(question!.metadata).not.toHaveProperty('model');
    expect(answer!.metadata).toMatchObject({ model, status: 'complete' });
  });

  it("edit-and-resend replaces the last user message and drops the answer after it (useChat's body)", async () => {
    const a = await h.signIn(alice, aliceAgent);
    const id = crypto.randomUUID();
    const userMessage = (messageId: string, text: string) => ({
      id: messageId,
      role: 'user',
      parts: [{ type: 'text', text }],
    });
    h.tools.state.behaviour = ({ args }) => ({
      ok: true,
      data: { sum: Number(args.a) + Number(args.b) },
    });
    const first = await post('/chainlit/chat', a, {
      id,
      trigger: 'submit-message',
      messages: [userMessage('clientMsg0001', 'add 1 and 2')],
    });
    expect(streamedText(uiChunks(first.body))).toContain('3');
    const second = await post('/chainlit/chat', a, {
      id,
      trigger: 'submit-message',
      messages: [userMessage('clientMsg0002', 'add 10 and 20')],
    });
    const oldAnswerId = (uiChunks(second.body)[0] as { messageId: string }).messageId;
    const rows = () =>
      h.db.kysely
        .selectFrom('messages')
        .select(['id', 'role', 'parts'])
        .where('thread_id', '=', id)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    // The client's ids are kept, so the frame can name the message it edits.
    expect((await rows()).map((r) => r.id)).toEqual([
      'clientMsg0001',
      expect.any(String),
      'clientMsg0002',
      oldAnswerId,
    ]);

    // An edit of an earlier message is refused and changes nothing.
    const earlier = await post('/chainlit/chat', a, {
      id,
      trigger: 'submit-message',
      messageId: 'clientMsg0001',
      messages: [userMessage('clientMsg0001', 'add 5 and 5')],
    });
    expect(earlier.statusCode).toBe(409);
    expect(await rows()).toHaveLength(4);

    const edited = await post('/chainlit/chat', a, {
      id,
      trigger: 'submit-message',
      messageId: 'clientMsg0002',
      messages: [userMessage('clientMsg0002', 'add 100 and 200')],
    });
    expect(edited.statusCode).toBe(200);
    const text = streamedText(uiChunks(edited.body));
    expect(text).toContain('300');
    const after = await rows();
    expect(after.map((r) => r.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(after[2]).toMatchObject({ id: 'clientMsg0002' });
    expect(JSON.parse(after[2]!.parts)).toEqual([{ type: 'text', text: 'add 100 and 200' }]);
    expect(after.map((r) => r.id)).not.toContain(oldAnswerId);
    const listed = await h.t.app.inject({
      method: 'GET',
      url: `/chainlit/threads/${id}/messages`,
      headers: a,
    });
    expect(JSON.stringify(listed.json().messages)).not.toContain('add 10 and 20');

    // Bob cannot edit Alice's message.
    const b = await h.signIn(bob, bobAgent);
    const foreign = await post('/chainlit/chat', b, {
      id,
      trigger: 'submit-message',
      messageId: 'clientMsg0002',
      messages: [userMessage('clientMsg0002', 'mine now')],
    });
    expect(foreign.statusCode).toBe(404);
  });

  it("keeps a fresh id when the client's message id is already taken", async () => {
    const a = await h.signIn(alice, aliceAgent);
    const body = (thread: string) => ({
      id: thread,
      trigger: 'submit-message',
      messages: [{ id: 'sharedMsgId01', role: 'user', parts: [{ type: 'text', text: 'hello' }] }],
    });
    const one = crypto.randomUUID();
    const two = crypto.randomUUID();
    expect((await post('/chainlit/chat', a, body(one))).statusCode).toBe(200);
    expect((await post('/chainlit/chat', a, body(two))).statusCode).toBe(200);
    const owners = await h.db.kysely
      .selectFrom('messages')
      .select('thread_id')
      .where('id', '=', 'sharedMsgId01')
      .execute();
    expect(owners).toEqual([{ thread_id: one }]);
    expect(
      await h.db.kysely.selectFrom('messages').select('id').where('thread_id', '=', two).execute(),
    ).toHaveLength(2);
  });
});

describe('chat turn rate limit', () => {
  it('answers 429 with Retry-After past CHAT_TURNS_PER_MINUTE', async () => {
    const { chatHarness: harness, seedAgent: agentOf } = await import('./support/chat-fixtures.ts');
    const h = await harness({ CHAT_TURNS_PER_MINUTE: '2' });
    try {
      const carol = await createUser(h.db, 'carol');
      const agent = await agentOf(h.db, carol);
      const headers = await h.signIn(carol, agent);
      const send = () =>
        h.t.app.inject({ method: 'POST', url: '/chainlit/chat', headers, payload: { text: 'hello' } });
      expect((await send()).statusCode).toBe(200);
      expect((await send()).statusCode).toBe(200);
      const limited = await send();
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({
        detail: 'Too many chat messages; wait a moment',
        code: 'rate_limited',
      });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await h.t.close();
    }
  });
});

describe('LLM settings checked at start', () => {
  it.each([
    [
      'anthropic without model or key',
      { LLM_PROVIDER: 'anthropic' },
      /LLM_MODEL: must name the model[\s\S]*LLM_API_KEY: must be set/,
    ],
    [
      'openai-compatible without a base URL',
      { LLM_PROVIDER: 'openai-compatible', LLM_MODEL: 'llama3.1' },
      /LLM_BASE_URL: must be set when LLM_PROVIDER=openai-compatible/,
    ],
    [
      'openai without a key',
      { LLM_PROVIDER: 'openai', LLM_MODEL: 'gpt-4o-mini' },
      /LLM_API_KEY: must be set/,
    ],
    ['an unknown provider', { LLM_PROVIDER: 'gemini' }, /LLM_PROVIDER: /],
  ])('refuses to start with %s, naming the setting', async (_name, env, message) => {
    const { createTestApp } = await import('./support/test-app.ts');
    await expect(createTestApp(env)).rejects.toThrow(message);
  });
});
