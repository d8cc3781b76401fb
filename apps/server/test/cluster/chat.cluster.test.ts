import { beforeAll, describe, expect, it } from 'vitest';
import { redeemCode, signUp } from './http-browser.ts';
import { sharedCluster, type SharedCluster } from './shared-cluster.ts';
import { readUiChunks } from '../support/sse.ts';

/**
 * Chat through HAProxy on three instances: the requests of one conversation land on different
 * instances (pinned here to make the point), and an instance is stopped in the middle of an answer.
 */
let cluster: SharedCluster;
let token: string;
let agentId: number;

beforeAll(async () => {
  cluster = await sharedCluster();
  const { code, verifier } = await signUp(cluster.url, {
    email: 'chatter@example.com',
    accessCode: cluster.accessCode,
  });
  token = (await redeemCode(cluster.url, code, verifier)).body.access_token!;
  const created = await fetch(`${cluster.url}/backend/api/v1/agents/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Talker', description: 'Talks at length', tool_ids: [] }),
  });
  agentId = ((await created.json()) as { id: number }).id;
}, 120_000);

/** A chat session (the frame's cookie) made on one instance. */
async function chatSession(pin: string) {
  const res = await fetch(`${cluster.url}/chainlit/auth/header`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-agent-id': String(agentId), 'x-pin-backend': pin },
  });
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('cadre_chat_session='))!;
  return cookie.split(';')[0]!;
}

interface Streaming {
  chunks: Record<string, unknown>[];
  done: Promise<void>;
  threadId: string;
  backend: string | null;
}

/** Sends a turn (pinned to `pin`) and reads its stream in the background. */
async function turn(
  headers: Record<string, string>,
  pin: string,
  body: Record<string, unknown>,
): Promise<Streaming> {
  const res = await fetch(`${cluster.url}/chainlit/chat`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'x-pin-backend': pin },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  const streaming: Streaming = {
    chunks: [],
    done: Promise.resolve(),
    threadId: '',
    backend: res.headers.get('x-backend'),
  };
  streaming.done = (async () => {
    try {
      await readUiChunks(res, (chunk) => {
        streaming.chunks.push(chunk);
        const meta = chunk.messageMetadata as { threadId?: string } | undefined;
        if (meta?.threadId) streaming.threadId = meta.threadId;
      });
    } catch {
      // The connection was cut (the instance went away); what arrived is in `chunks`.
    }
  })();
  await expect.poll(() => streaming.threadId).not.toBe('');
  return streaming;
}

const deltas = (s: Streaming) => s.chunks.filter((c) => c.type === 'text-delta').length;

async function lastAnswer(threadId: string) {
  const [row] = await cluster.query<{ status: string; parts: string }>(
    `select status, parts from messages where thread_id = $1 and role = 'assistant' order by created_at desc limit 1`,
    [threadId],
  );
  return row!;
}

describe('chat on three instances behind HAProxy', () => {
  it('stops a run from another instance, and refuses a second turn there with 409', async () => {
    const cookie = await chatSession('cadre1');
    const headers = { cookie, origin: cluster.url, 'x-requested-with': 'cadre-chat' };
    const modelCalls = cluster.model.requests.length;
    const running = await turn(headers, 'cadre1', { text: 'slow 300 20' });
    expect(running.backend).toBe('cadre1');
    await expect.poll(() => deltas(running)).toBeGreaterThan(5);

    const second = await fetch(`${cluster.url}/chainlit/chat`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'x-pin-backend': 'cadre2' },
      body: JSON.stringify({ threadId: running.threadId, text: 'meanwhile' }),
    });
    expect(second.status).toBe(409);

    const sent = Date.now();
    const stop = await fetch(`${cluster.url}/chainlit/threads/${running.threadId}/stop`, {
      method: 'POST',
      headers: { ...headers, 'x-pin-backend': 'cadre3' },
    });
    expect(await stop.json()).toMatchObject({ stopped: true, outcome: 'stopped' });
    await running.done;
    expect(Date.now() - sent).toBeLessThan(1_000);
    await expect.poll(() => cluster.model.requests.slice(modelCalls).some((r) => r.aborted)).toBe(true);
    const stored = await lastAnswer(running.threadId);
    expect(stored.status).toBe('interrupted');
    expect(stored.parts).toContain('tok5 ');
  });

  /** Rejoins the thread's live answer on `pin` (GET /chat/:threadId/stream) and reads it to its end. */
  async function rejoin(headers: Record<string, string>, pin: string, threadId: string) {
    const res = await fetch(`${cluster.url}/chainlit/chat/${threadId}/stream`, {
      headers: { ...headers, 'x-pin-backend': pin },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-backend')).toBe(pin);
    const chunks: Record<string, unknown>[] = [];
    await readUiChunks(res, (chunk) => chunks.push(chunk));
    return chunks;
  }
  const textOf = (chunks: Record<string, unknown>[]) =>
    chunks
      .filter((c) => c.type === 'text-delta')
      .map((c) => c.delta)
      .join('');

  it('a second device on another instance rejoins a live answer and sees it to the end, the same text', async () => {
    const cookie = await chatSession('cadre1');
    const headers = { cookie, origin: cluster.url, 'x-requested-with': 'cadre-chat' };
    const running = await turn(headers, 'cadre1', { text: 'slow 60 20' });
    await expect.poll(() => deltas(running)).toBeGreaterThan(5);
    const joined = await rejoin(headers, 'cadre2', running.threadId);
    await running.done;
    expect(textOf(joined)).toBe(textOf(running.chunks));
    expect(textOf(joined)).toContain('tok60 ');
    expect(joined.at(-1)).toMatchObject({ type: 'finish', messageMetadata: { status: 'complete' } });
  });

  it('a reload rejoins, on another instance, the answer its closed connection left running', async () => {
    const cookie = await chatSession('cadre1');
    const headers = { cookie, origin: cluster.url, 'x-requested-with': 'cadre-chat' };
    const closed = new AbortController();
    const res = await fetch(`${cluster.url}/chainlit/chat`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'x-pin-backend': 'cadre1' },
      body: JSON.stringify({ text: 'slow 40 25' }),
      signal: closed.signal,
    });
    const threadId = res.headers.get('x-thread-id')!;
    await res.body!.getReader().read();
    closed.abort();
    const joined = await rejoin(headers, 'cadre3', threadId);
    expect(textOf(joined)).toBe(Array.from({ length: 40 }, (_, i) => `tok${i + 1} `).join(''));
    expect((await lastAnswer(threadId)).status).toBe('complete');
  });

  it('delivers a copilot host-page result posted to another instance to the run that waits for it', async () => {
    const login = await fetch(`${cluster.url}/backend/api/v1/auth/chainlit-copilot-login`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: agentId }),
    });
    const copilot = ((await login.json()) as { copilot_auth_token: string }).copilot_auth_token;
    const headers = { authorization: `Bearer ${copilot}` };
    const running = await turn(headers, 'cadre2', {
      text: 'tool call_host_function {"name":"get_page_title"}',
    });
    await expect.poll(() => running.chunks.some((c) => c.type === 'data-call-fn')).toBe(true);
    const call = running.chunks.find((c) => c.type === 'data-call-fn') as {
      data: { callId: string; name: string };
    };
    expect(call.data.name).toBe('get_page_title');

    const answered = await fetch(`${cluster.url}/chainlit/fn-results/${call.data.callId}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'x-pin-backend': 'cadre1' },
      body: JSON.stringify({ result: 'Cadre — the page title' }),
    });
    expect(answered.status).toBe(204);
    await running.done;
    expect(running.chunks).toContainEqual(
      expect.objectContaining({ type: 'tool-output-available', output: 'Cadre — the page title' }),
    );
    // Answered once; an unknown call is refused at once, on any instance.
    const again = await fetch(`${cluster.url}/chainlit/fn-results/${call.data.callId}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'x-pin-backend': 'cadre3' },
      body: JSON.stringify({ result: 'late' }),
    });
    expect(again.status).toBe(404);
  });

  it('on SIGTERM an idle instance refuses new turns with 503, the proxy has another instance answer them, and it exits 0', async () => {
    const cookie = await chatSession('cadre1');
    const headers = {
      cookie,
      origin: cluster.url,
      'x-requested-with': 'cadre-chat',
      'content-type': 'application/json',
    };
    const instance = cluster.instances[1]!;
    const earlierLogs = instance.logs.length;
    const signalled = Date.now();
    instance.signal('SIGTERM');
    const direct = `http://127.0.0.1:${instance.port}`;
    await expect
      .poll(async () => (await fetch(`${direct}/backend/api/v1/public/health/ready`)).status)
      .toBe(503);
    // Sent to it straight: refused before anything is stored, with a hint to retry at once.
    const refused = await fetch(`${direct}/chainlit/chat`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text: 'short answer' }),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    // Through HAProxy, sent to it (pinned) with an Idempotency-Key as the chat frame sends one: the
    // 503 is retried on another instance, which answers.
    const answers = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const res = await fetch(`${cluster.url}/chainlit/chat`, {
          method: 'POST',
          headers: { ...headers, 'x-pin-backend': 'cadre2', 'idempotency-key': crypto.randomUUID() },
          body: JSON.stringify({ text: 'short answer' }),
        });
        await res.text();
        return [res.status, res.headers.get('x-backend')];
      }),
    );
    for (const [status, backend] of answers) {
      expect(status).toBe(200);
      expect(backend).not.toBe('cadre2');
    }
    expect(await instance.exited).toBe(0);
    // They did reach it first: it refused each of them (HAProxy tries it again before redispatching).
    expect(
      instance.logs.slice(earlierLogs).filter((line) => /POST \/chainlit\/chat 503/.test(line)).length,
    ).toBeGreaterThanOrEqual(4);
    // SHUTDOWN_DRAIN_DELAY_MS (4.5 s here), then nothing holds the exit.
    expect(Date.now() - signalled).toBeLessThan(10_000);
    await cluster.waitReady(await cluster.startInstance(1));
  });

  it('on SIGTERM during a long answer, saves what streamed, tells the client, and exits 0', async () => {
    const cookie = await chatSession('cadre3');
    const headers = { cookie, origin: cluster.url, 'x-requested-with': 'cadre-chat' };
    const running = await turn(headers, 'cadre3', { text: 'slow 1500 20' });
    await expect.poll(() => deltas(running)).toBeGreaterThan(20);
    const instance = cluster.instances[2]!;
    // Meanwhile people keep using the app through the proxy on keep-alive connections.
    let stopLoad = false;
    const failures: string[] = [];
    let answered = 0;
    const load = Array.from({ length: 4 }, async () => {
      while (!stopLoad) {
        try {
          const res = await fetch(`${cluster.url}/backend/api/v1/agents/`, {
            headers: { authorization: `Bearer ${token}` },
          });
          if (res.status === 200) answered += 1;
          else failures.push(`${res.status} from ${res.headers.get('x-backend')}`);
          await res.arrayBuffer();
        } catch (err) {
          failures.push(String((err as Error).cause ?? err));
        }
      }
    });
    await expect.poll(() => answered).toBeGreaterThan(20);
    const signalled = Date.now();
    instance.signal('SIGTERM');
    expect(await instance.exited).toBe(0);
    stopLoad = true;
    await Promise.all(load);
    // Not one request failed: the draining instance left the pool, HAProxy retried what it cut.
    expect(failures).toEqual([]);
    // The cluster drains for 4.5 s (SHUTDOWN_DRAIN_DELAY_MS) and gives runs 3 s (SHUTDOWN_TIMEOUT_MS).
    expect(Date.now() - signalled).toBeLessThan(10_000);
    await running.done;
    const error = running.chunks.find((c) => c.type === 'error') as { errorText: string } | undefined;
    expect(error?.errorText).toContain('The server is restarting');
    const stored = await lastAnswer(running.threadId);
    expect(stored.status).toBe('interrupted');
    expect(stored.parts).toContain('tok20 ');
    // The other instances serve the conversation on; the stopped one comes back as a deploy would.
    const other = await fetch(`${cluster.url}/chainlit/threads/${running.threadId}/messages`, {
      headers: { cookie, 'x-pin-backend': 'cadre1' },
    });
    expect(other.status).toBe(200);
    await cluster.waitReady(await cluster.startInstance(2));
  });
});
