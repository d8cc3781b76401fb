import { beforeAll, describe, expect, it } from 'vitest';
import { redeemCode, signUp } from './http-browser.ts';
import { sharedCluster, type SharedCluster } from './shared-cluster.ts';

/**
 * The nginx recipe of docs/deployment.md (`deploy/nginx.conf`, run by Debian's nginx) in front of
 * three built instances: requests spread over every instance, answers stream through unbuffered,
 * and across a SIGTERM no chat turn without an Idempotency-Key is sent to a second instance (it
 * could run twice), while one with a key is. The shared cluster has HAProxy in front of the same
 * instances, at PUBLIC_URL, where people sign in; every request this file checks goes through nginx.
 */
let cluster: SharedCluster;
let nginx: string;
let token: string;
let chat: Record<string, string>;

beforeAll(async () => {
  cluster = await sharedCluster();
  nginx = cluster.nginxUrl;
  const { code, verifier } = await signUp(cluster.url, {
    email: 'nginx@example.com',
    accessCode: cluster.accessCode,
  });
  token = (await redeemCode(cluster.url, code, verifier)).body.access_token!;
  const created = await fetch(`${nginx}/backend/api/v1/agents/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Talker', description: 'Talks', tool_ids: [] }),
  });
  const agentId = ((await created.json()) as { id: number }).id;
  const session = await fetch(`${nginx}/chainlit/auth/header`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-agent-id': String(agentId) },
  });
  const cookie = session.headers
    .getSetCookie()
    .find((c) => c.startsWith('cadre_chat_session='))!
    .split(';')[0]!;
  chat = {
    cookie,
    // The page's origin, PUBLIC_URL's, as a browser sends it.
    origin: cluster.url,
    'x-requested-with': 'cadre-chat',
    'content-type': 'application/json',
  };
}, 120_000);

/**
 * A chat turn through nginx, read to its end: its status, Retry-After and answering instance. With
 * `keyed`, it carries an Idempotency-Key as the chat frame's turns do.
 */
async function turn(text = 'short answer', keyed = false) {
  const res = await fetch(`${nginx}/chainlit/chat`, {
    method: 'POST',
    headers: keyed ? { ...chat, 'idempotency-key': crypto.randomUUID() } : chat,
    body: JSON.stringify({ text }),
  });
  await res.text();
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    backend: res.headers.get('x-backend'),
  };
}

describe('three instances behind nginx', () => {
  it('spreads requests over every instance and streams an answer while it is being written', async () => {
    const backends = new Set<string | null>();
    for (let i = 0; i < 6; i += 1) {
      const res = await fetch(`${nginx}/backend/api/v1/agents/`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      backends.add(res.headers.get('x-backend'));
      await res.arrayBuffer();
    }
    expect(backends).toEqual(new Set(['cadre1', 'cadre2', 'cadre3']));

    const res = await fetch(`${nginx}/chainlit/chat`, {
      method: 'POST',
      headers: chat,
      body: JSON.stringify({ text: 'slow 40 50' }),
    });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = '';
    while (!seen.includes('"text-delta"')) seen += (await reader.read()).value ?? '';
    // The first words arrived while the model was still writing the rest: nothing held them back.
    expect(cluster.model.requests.at(-1)!.ended).toBe(false);
    while (!(await reader.read()).done);
  });

  it('sends a chat turn to a second instance only with its Idempotency-Key: one without, a draining instance refused, reaches the client as 503', async () => {
    const instance = cluster.instances[1]!;
    instance.signal('SIGTERM');
    await expect
      .poll(
        async () =>
          (await fetch(`http://127.0.0.1:${instance.port}/backend/api/v1/public/health/ready`)).status,
      )
      .toBe(503);
    const modelCalls = cluster.model.requests.length;
    const during = [];
    const keyed = [];
    for (let i = 0; i < 6; i += 1) {
      during.push(await turn());
      keyed.push(await turn('short answer', true));
    }
    // A keyed turn is safe to pass on: one the draining instance refused ran on another.
    for (const t of keyed) expect(t.status).toBe(200);
    for (const t of keyed) expect(t.backend).not.toBe('cadre2');
    // Round-robin met the draining instance: its refusal came back as it was, and nobody else ran it.
    const refused = during.filter((t) => t.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const t of refused) expect(t).toEqual({ status: 503, retryAfter: '1', backend: 'cadre2' });
    for (const t of during.filter((t) => t.status === 200)) expect(t.backend).not.toBe('cadre2');
    expect(cluster.model.requests.length - modelCalls).toBe(during.length + keyed.length - refused.length);

    expect(await instance.exited).toBe(0);
    // Gone: a refused connection is passed on to the next instance, POST or not.
    const after = [];
    for (let i = 0; i < 6; i += 1) after.push(await turn());
    expect(after.map((t) => t.status)).toEqual([200, 200, 200, 200, 200, 200]);
    await cluster.waitReady(await cluster.startInstance(1));
  });
});
