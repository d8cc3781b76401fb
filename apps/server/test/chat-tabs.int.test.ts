import { CHAT_AGENT_HEADER, CHAT_CSRF_HEADER, CHAT_CSRF_VALUE, chatSessionCookieFor } from '@cadre/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attach,
  calculatorSchema,
  chatHarness,
  noteSchema,
  ORIGIN,
  seedAction,
  seedAgent,
  uiChunks,
  type ChatHarness,
} from './support/chat-fixtures.ts';
import { createUser } from './support/users.ts';

/**
 * One browser, two tabs, two agents (issue 16 item 1): the web app opens a chat session for agent A
 * in one tab and for agent B in another; each frame names its agent on every request, so each tab
 * keeps its own agent, threads and answers. The cookie jar below is the browser's.
 */
describe('chat sessions per agent: two tabs in one browser', () => {
  let h: ChatHarness;
  let alice: number;
  let calculator: number;
  let organizer: number;
  let addAction: number;
  let noteAction: number;

  beforeAll(async () => {
    h = await chatHarness();
    alice = await createUser(h.db, 'alice');
    calculator = await seedAgent(h.db, alice, 'Calculator');
    organizer = await seedAgent(h.db, alice, 'Organizer');
    addAction = await seedAction(h.db, {
      name: 'add',
      description: 'Adds two numbers',
      effect: 'read',
      schema: calculatorSchema,
    });
    noteAction = await seedAction(h.db, {
      name: 'create_note',
      description: 'Creates a note',
      effect: 'read',
      schema: noteSchema,
    });
    await attach(h.db, calculator, addAction);
    await attach(h.db, organizer, noteAction);
  });
  afterAll(() => h.t.close());

  /** A browser's cookies for /chainlit: what Set-Cookie sets, an empty value or Max-Age=0 deletes. */
  function browser() {
    const jar = new Map<string, string>();
    const keep = (res: { cookies: { name: string; value: string; maxAge?: number }[] }) => {
      for (const c of res.cookies) {
        if (c.value === '' || c.maxAge === 0) jar.delete(c.name);
        else jar.set(c.name, c.value);
      }
    };
    const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    return {
      jar,
      /** What the web app does when a tab opens an agent's chat: end that agent's old session, open a new one. */
      async openChat(agentId: number) {
        const out = await h.t.app.inject({
          method: 'POST',
          url: '/chainlit/logout',
          headers: {
            cookie: cookie(),
            origin: ORIGIN,
            [CHAT_CSRF_HEADER]: CHAT_CSRF_VALUE,
            [CHAT_AGENT_HEADER]: String(agentId),
          },
        });
        expect(out.statusCode).toBe(200);
        keep(out);
        const res = await h.t.app.inject({
          method: 'POST',
          url: '/chainlit/auth/header',
          headers: {
            cookie: cookie(),
            authorization: `Bearer access-${alice}`,
            'x-agent-id': String(agentId),
          },
        });
        expect(res.statusCode).toBe(200);
        keep(res);
        return frame(agentId);
      },
      frame,
    };
    /** The chat frame of one tab: its URL names the agent, and so does every request it makes. */
    function frame(agentId: number) {
      const headers = () => ({
        cookie: cookie(),
        origin: ORIGIN,
        [CHAT_CSRF_HEADER]: CHAT_CSRF_VALUE,
        [CHAT_AGENT_HEADER]: String(agentId),
      });
      return {
        get: (url: string) => h.t.app.inject({ method: 'GET', url: `/chainlit${url}`, headers: headers() }),
        post: (url: string, payload: object) =>
          h.t.app.inject({ method: 'POST', url: `/chainlit${url}`, headers: headers(), payload }),
        async say(threadId: string, text: string) {
          const res = await h.t.app.inject({
            method: 'POST',
            url: '/chainlit/chat',
            headers: headers(),
            payload: { id: threadId, text },
          });
          expect(res.statusCode).toBe(200);
          return uiChunks(res.body);
        },
      };
    }
  }

  const toolCalls = (chunks: ReturnType<typeof uiChunks>) =>
    chunks.flatMap((c) => (c.type === 'tool-input-available' ? [{ tool: c.toolName, input: c.input }] : []));

  it("keeps each tab on its own agent: A's tab still talks to A after B's tab opened", async () => {
    const b = browser();
    const tabA = await b.openChat(calculator);
    const tabB = await b.openChat(organizer);
    const threadA = crypto.randomUUID();
    const threadB = crypto.randomUUID();

    const sessionA = await tabA.get('/session');
    expect(sessionA.statusCode).toBe(200);
    expect(sessionA.json().agent).toMatchObject({ id: calculator, name: 'Calculator' });
    expect((await tabB.get('/session')).json().agent).toMatchObject({ id: organizer, name: 'Organizer' });

    // Interleaved turns: each answer comes from its own agent's tools.
    expect(toolCalls(await tabA.say(threadA, 'add 17 and 25'))).toEqual([
      { tool: 'add', input: { a: 17, b: 25 } },
    ]);
    expect(toolCalls(await tabB.say(threadB, 'note down: call the bank'))).toEqual([
      { tool: 'create_note', input: { title: 'call the bank' } },
    ]);
    expect(toolCalls(await tabA.say(threadA, 'add 1 and 2'))).toEqual([
      { tool: 'add', input: { a: 1, b: 2 } },
    ]);
    expect(h.tools.calls.map((c) => c.actionId)).toEqual([addAction, noteAction, addAction]);

    // Each thread is stored with its own agent, and each tab lists only its agent's threads.
    const stored = await h.db.kysely
      .selectFrom('threads')
      .select(['id', 'agent_id'])
      .where('id', 'in', [threadA, threadB])
      .execute();
    expect(Object.fromEntries(stored.map((t) => [t.id, t.agent_id]))).toEqual({
      [threadA]: calculator,
      [threadB]: organizer,
    });
    expect((await tabA.get('/threads')).json().data.map((t: { id: string }) => t.id)).toEqual([threadA]);
    expect((await tabB.get('/threads')).json().data.map((t: { id: string }) => t.id)).toEqual([threadB]);
    // A thread of the other tab's agent is not found from this tab.
    expect((await tabA.get(`/threads/${threadB}/messages`)).statusCode).toBe(404);
    expect((await tabB.get(`/threads/${threadA}/messages`)).statusCode).toBe(404);
  });

  it('gives each agent its own strict httpOnly cookie scoped to /chainlit', async () => {
    const b = browser();
    await b.openChat(calculator);
    await b.openChat(organizer);
    expect([...b.jar.keys()]).toEqual(
      expect.arrayContaining([chatSessionCookieFor(calculator), chatSessionCookieFor(organizer)]),
    );
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/chainlit/auth/header',
      headers: { authorization: `Bearer access-${alice}`, 'x-agent-id': String(calculator) },
    });
    expect(res.cookies.find((c) => c.name === chatSessionCookieFor(calculator))).toMatchObject({
      path: '/chainlit',
      httpOnly: true,
      sameSite: 'Strict',
    });
  });

  it("opening an agent's chat again ends only that agent's old session, never the other tab's", async () => {
    const b = browser();
    const tabA = await b.openChat(calculator);
    const tabB = await b.openChat(organizer);
    const oldA = b.jar.get(chatSessionCookieFor(calculator))!;
    await b.openChat(calculator);
    expect(b.jar.get(chatSessionCookieFor(calculator))).not.toBe(oldA);
    expect((await tabA.get('/session')).json().agent.id).toBe(calculator);
    expect((await tabB.get('/session')).json().agent.id).toBe(organizer);
    const stale = await h.t.app.inject({
      method: 'GET',
      url: '/chainlit/session',
      headers: {
        cookie: `${chatSessionCookieFor(calculator)}=${oldA}`,
        [CHAT_AGENT_HEADER]: String(calculator),
      },
    });
    expect(stale.statusCode).toBe(401);
  });

  it('refuses a frame that names an agent it has no session for, and a malformed agent header', async () => {
    const b = browser();
    await b.openChat(calculator);
    const other = b.frame(organizer);
    const res = await other.get('/session');
    expect(res.statusCode).toBe(401);
    // A session cookie of one agent never speaks for another, even under that agent's cookie name.
    const swapped = await h.t.app.inject({
      method: 'GET',
      url: '/chainlit/session',
      headers: {
        cookie: `${chatSessionCookieFor(organizer)}=${b.jar.get(chatSessionCookieFor(calculator))}`,
        [CHAT_AGENT_HEADER]: String(organizer),
      },
    });
    expect(swapped.statusCode).toBe(401);
    const bad = await h.t.app.inject({
      method: 'GET',
      url: '/chainlit/session',
      headers: { cookie: `${chatSessionCookieFor(calculator)}=x`, [CHAT_AGENT_HEADER]: 'abc' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toContain(CHAT_AGENT_HEADER);
  });

  it('keeps the copilot on its own agent beside an open chat of another agent', async () => {
    const b = browser();
    const tabB = await b.openChat(organizer);
    const copilot = await h.t.app.inject({
      method: 'GET',
      url: '/chainlit/session',
      headers: {
        authorization: `Bearer copilot-${alice}-${calculator}`,
        cookie: `${[...b.jar][0]!.join('=')}`,
      },
    });
    expect(copilot.json()).toMatchObject({ agent: { id: calculator }, via: 'copilot' });
    expect((await tabB.get('/session')).json()).toMatchObject({ agent: { id: organizer }, via: 'cookie' });
  });

  it('signing out of the web app ends every chat session of the browser', async () => {
    const b = browser();
    const tabA = await b.openChat(calculator);
    const tabB = await b.openChat(organizer);
    const out = await h.t.app.inject({
      method: 'POST',
      url: '/chainlit/logout',
      headers: {
        cookie: [...b.jar].map(([n, v]) => `${n}=${v}`).join('; '),
        authorization: `Bearer access-${alice}`,
        origin: ORIGIN,
        [CHAT_CSRF_HEADER]: CHAT_CSRF_VALUE,
      },
    });
    expect(out.statusCode).toBe(200);
    const cleared = out.cookies.filter((c) => c.value === '').map((c) => c.name);
    expect(cleared).toEqual(
      expect.arrayContaining([chatSessionCookieFor(calculator), chatSessionCookieFor(organizer)]),
    );
    expect((await tabA.get('/session')).statusCode).toBe(401);
    expect((await tabB.get('/session')).statusCode).toBe(401);
  });
});
