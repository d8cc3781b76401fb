import type { UIMessageChunk } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attach,
  calculatorSchema,
  chatHarness,
  seedAction,
  seedAgent,
  streamedText,
  uiChunks,
  type ChatHarness,
} from './support/chat-fixtures.ts';
import { createUser } from './support/users.ts';

const PROMPT = 'Call the host function "get_page_title"';

/** Reads an SSE UI message stream chunk by chunk. */
function chunkReader(body: ReadableStream<Uint8Array>) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const seen: UIMessageChunk[] = [];
  return {
    seen,
    /** Reads until a chunk satisfies `until` (or the stream ends); returns it. */
    async next(until: (chunk: UIMessageChunk) => boolean): Promise<UIMessageChunk | undefined> {
      for (;;) {
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const [chunk] = uiChunks(`${event}\n\n`);
          if (!chunk) continue;
          seen.push(chunk);
          if (until(chunk)) return chunk;
        }
        const { value, done } = await reader.read();
        if (done) return undefined;
        buffer += value;
      }
    },
  };
}

/** The copilot's host-page functions: the run asks the page, the page's answer reaches the model. */
describe('copilot host-page functions', () => {
  let h: ChatHarness;
  let base: string;
  let alice: number;
  let bob: number;
  let aliceAgent: number;
  let aliceOtherAgent: number;
  let bobAgent: number;

  beforeAll(async () => {
    h = await chatHarness();
    alice = await createUser(h.db, 'alice');
    bob = await createUser(h.db, 'bob');
    aliceAgent = await seedAgent(h.db, alice, 'Shop copilot');
    aliceOtherAgent = await seedAgent(h.db, alice, 'Other');
    bobAgent = await seedAgent(h.db, bob, 'Bob agent');
    const add = await seedAction(h.db, {
      name: 'calculator_add',
      description: 'Add two numbers',
      effect: 'read',
      schema: calculatorSchema,
    });
    await attach(h.db, aliceAgent, add);
    base = await h.t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => h.t.close());

  const copilot = (userId: number, agentId: number) => ({
    authorization: `Bearer copilot-${userId}-${agentId}`,
    'content-type': 'application/json',
  });
  const postResult = (headers: Record<string, string>, callId: string, result: unknown) =>
    fetch(`${base}/chainlit/fn-results/${callId}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ result }),
    });

  it('suggests the host-function prompt in the copilot only', async () => {
    const viaCopilot = await fetch(`${base}/chainlit/session`, { headers: copilot(alice, aliceAgent) });
    const info = (await viaCopilot.json()) as { agent: { suggestedPrompts: string[] } };
    expect(info.agent.suggestedPrompts).toContain(PROMPT);
    const cookie = await h.signIn(alice, aliceAgent);
    const viaFrame = await h.t.app.inject({ method: 'GET', url: '/chainlit/session', headers: cookie });
    expect(viaFrame.json().agent.suggestedPrompts).not.toContain(PROMPT);
  });

  it('shows at most four starters in the copilot, the host-function prompt in the last place', async () => {
    // Five tools, each with an example: three of them, then the prompt.
    const calculator = await seedAgent(h.db, alice, 'Alice calculator');
    for (const [i, name] of ['add', 'subtract', 'multiply', 'divide', 'power'].entries())
      await attach(
        h.db,
        calculator,
        await seedAction(h.db, {
          name,
          description: `${name} two numbers`,
          effect: 'read',
          schema: calculatorSchema,
        }),
        i,
      );
    const starters = async (agentId: number) =>
      (
        (await (await fetch(`${base}/chainlit/session`, { headers: copilot(alice, agentId) })).json()) as {
          agent: { suggestedPrompts: string[] };
        }
      ).agent.suggestedPrompts;
    expect(await starters(calculator)).toEqual([
      'Add 9 and 33',
      'Subtract 8 from 50',
      'What is 12 times 7?',
      PROMPT,
    ]);
    // The owner's own starters are kept; the prompt shows only when they leave room.
    const setStarters = (value: string[]) =>
      h.db.kysely
        .updateTable('agents')
        .set({ starters: JSON.stringify(value) })
        .where('id', '=', calculator)
        .execute();
    await setStarters(['One?', 'Two?', 'Three?']);
    expect(await starters(calculator)).toEqual(['One?', 'Two?', 'Three?', PROMPT]);
    await setStarters(['One?', 'Two?', 'Three?', 'Four?']);
    expect(await starters(calculator)).toEqual(['One?', 'Two?', 'Three?', 'Four?']);
  });

  it("a copilot turn calls the page's function; only its owner's answer reaches the model, once", async () => {
    const response = await fetch(`${base}/chainlit/chat`, {
      method: 'POST',
      headers: copilot(alice, aliceAgent),
      body: JSON.stringify({ text: PROMPT }),
    });
    expect(response.status).toBe(200);
    const threadId = response.headers.get('x-thread-id')!;
    const stream = chunkReader(response.body!);
    const call = (await stream.next((c) => c.type === 'data-call-fn')) as unknown as {
      data: { callId: string; name: string; args: unknown };
    };
    expect(call.data).toMatchObject({ name: 'get_page_title', args: {} });
    const callId = call.data.callId;
    // The call is saved as it happens: a crash while the page works on it keeps the step.
    await expect
      .poll(async () => {
        const row = await h.db.kysely
          .selectFrom('messages')
          .select('parts')
          .where('thread_id', '=', threadId)
          .where('role', '=', 'assistant')
          .executeTakeFirst();
        return row ? (JSON.parse(row.parts) as unknown[]) : [];
      })
      .toContainEqual(
        expect.objectContaining({
          type: 'dynamic-tool',
          toolName: 'call_host_function',
          state: 'input-available',
        }),
      );

    // Bob, Alice's other agent and an unknown id are all refused, and settle nothing.
    expect((await postResult(copilot(bob, bobAgent), callId, { title: 'forged' })).status).toBe(404);
    expect((await postResult(copilot(alice, aliceOtherAgent), callId, { title: 'forged' })).status).toBe(404);
    expect((await postResult(copilot(alice, aliceAgent), crypto.randomUUID(), 'x')).status).toBe(404);
    expect((await postResult({}, callId, { title: 'anonymous' })).status).toBe(401);

    expect((await postResult(copilot(alice, aliceAgent), callId, { title: 'Pricing — Acme' })).status).toBe(
      204,
    );
    expect((await postResult(copilot(alice, aliceAgent), callId, { title: 'again' })).status).toBe(404);

    await stream.next(() => false);
    const chunks = stream.seen;
    expect(chunks).toContainEqual(
      expect.objectContaining({ type: 'tool-output-available', output: { title: 'Pricing — Acme' } }),
    );
    expect(streamedText(chunks)).toContain('Pricing — Acme');
    expect(streamedText(chunks)).not.toMatch(/forged|anonymous|again/);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', messageMetadata: { status: 'complete' } });

    const stored = await h.t.app.inject({
      method: 'GET',
      url: `/chainlit/threads/${threadId}/messages`,
      headers: copilot(alice, aliceAgent),
    });
    const parts = stored.json().messages.at(-1).parts as Array<Record<string, unknown>>;
    expect(parts).toContainEqual(
      expect.objectContaining({
        type: 'dynamic-tool',
        toolName: 'call_host_function',
        title: 'Host page function',
        state: 'output-available',
        input: { name: 'get_page_title' },
        output: { title: 'Pricing — Acme' },
      }),
    );
    // The page function is not one of the agent's tools: nothing ran in the tools layer.
    expect(h.tools.calls).toHaveLength(0);
  });

  it('answers 410 to a result that comes after the run stopped waiting for it', async () => {
    const response = await fetch(`${base}/chainlit/chat`, {
      method: 'POST',
      headers: copilot(alice, aliceAgent),
      body: JSON.stringify({ text: PROMPT }),
    });
    const threadId = response.headers.get('x-thread-id')!;
    const stream = chunkReader(response.body!);
    const call = (await stream.next((c) => c.type === 'data-call-fn')) as unknown as {
      data: { callId: string };
    };
    const stopped = await fetch(`${base}/chainlit/threads/${threadId}/stop`, {
      method: 'POST',
      headers: { authorization: copilot(alice, aliceAgent).authorization },
    });
    expect(await stopped.json()).toMatchObject({ stopped: true, outcome: 'stopped' });
    await stream.next(() => false);
    // The waiting run lets go of the call as it stops (a moment after the stream ends).
    await expect
      .poll(async () => {
        const row = await h.db.kysely
          .selectFrom('host_calls')
          .select('status')
          .where('id', '=', call.data.callId)
          .executeTakeFirst();
        return row?.status;
      })
      .toBe('expired');
    const late = await postResult(copilot(alice, aliceAgent), call.data.callId, { title: 'too late' });
    expect(late.status).toBe(410);
    expect(await late.json()).toEqual({
      detail: 'This function call has expired; the agent stopped waiting',
      code: 'expired',
    });
    // Still only its owner learns that much.
    expect((await postResult(copilot(bob, bobAgent), call.data.callId, 'x')).status).toBe(404);
  });

  it('the frame (cookie session) gets no host-function tool', async () => {
    const cookie = await h.signIn(alice, aliceAgent);
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/chainlit/chat',
      headers: cookie,
      payload: { text: PROMPT },
    });
    const chunks = uiChunks(res.body);
    expect(chunks.some((c) => c.type === 'data-call-fn')).toBe(false);
    expect(JSON.stringify(chunks)).not.toContain('call_host_function');
  });
});
