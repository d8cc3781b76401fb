import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_CACHE_MS } from '../../src/modules/api-keys/service.ts';
import { chatFrameHeaders, redeemCode, signUp } from './http-browser.ts';
import { sharedCluster, type SharedCluster } from './shared-cluster.ts';

/** The shared cluster's TRIGGERS_PER_MINUTE. */
const TRIGGERS_PER_MINUTE = 3;
const PINS = ['cadre1', 'cadre2', 'cadre3'];

/**
 * Agents reached from code on three built instances behind HAProxy (issue 18): API keys revoked on
 * one instance fail at once on the others, triggers are limited per agent across instances, and the
 * official `openai` and MCP SDK clients work through the proxy, with an approval decided on one
 * instance and the conversation going on from another.
 */
let cluster: SharedCluster;
let token: string;

beforeAll(async () => {
  cluster = await sharedCluster();
  expect(cluster.env.TRIGGERS_PER_MINUTE).toBe(String(TRIGGERS_PER_MINUTE));
  const { code, verifier } = await signUp(cluster.url, {
    email: 'kay@example.com',
    accessCode: cluster.accessCode,
  });
  const tokens = await redeemCode(cluster.url, code, verifier);
  expect(tokens.status).toBe(200);
  token = tokens.body.access_token!;
  expect((await api('/users/check-user', token, { method: 'POST' })).status).toBe(200);
}, 180_000);

function api(path: string, bearer: string, init: RequestInit & { pin?: string; json?: unknown } = {}) {
  const { pin, json, ...rest } = init;
  return fetch(`${cluster.url}/backend/api/v1${path}`, {
    ...rest,
    body: json === undefined ? rest.body : JSON.stringify(json),
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(pin ? { 'x-pin-backend': pin } : {}),
    },
  });
}

async function newAgent(name: string, toolIds: number[] = []) {
  const res = await api('/agents/', token, {
    method: 'POST',
    json: { name, description: `${name} does things`, tool_ids: toolIds },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

async function newKey(body: object) {
  const res = await api('/api-keys', token, { method: 'POST', json: body });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number; key: string };
}

describe('agents from code on three instances', () => {
  it('a key revoked on one instance is refused with 401 at once by the others', async () => {
    const { id, key } = await newKey({ name: 'revoked soon', scopes: ['agents:read'] });
    // Every instance verified the key and holds it in its cache.
    for (const pin of PINS) expect((await api('/agents/', key, { pin })).status, pin).toBe(200);
    const revokedAt = Date.now();
    expect((await api(`/api-keys/${id}`, token, { method: 'DELETE', pin: 'cadre1' })).status).toBe(204);
    for (const pin of PINS.slice(1)) {
      await expect
        .poll(async () => (await api('/agents/', key, { pin })).status, {
          interval: 25,
          timeout: API_KEY_CACHE_MS,
        })
        .toBe(401);
    }
    // The revocation travelled as a signal, before any instance's cache would have let the key go.
    expect(Date.now() - revokedAt).toBeLessThan(API_KEY_CACHE_MS);
    expect((await api('/agents/', key, { pin: 'cadre1' })).status).toBe(401);
  });

  it('takes trigger calls made with an API key, TRIGGERS_PER_MINUTE per agent across instances, then 429 with Retry-After', async () => {
    const other = await newAgent('Other desk');
    const { key } = await newKey({ name: 'events', scopes: ['chat'] });
    // The count is per clock minute (a window starts on each minute, by the instances' clock,
    // which is this machine's). A burst that crossed into the next minute is sent again to a new
    // agent, which has its own count; the second burst starts a minute and fits in it.
    const minute = () => Math.floor(Date.now() / 60_000);
    let agent: number;
    let answers: Response[];
    for (let burst = 1; ; burst += 1) {
      agent = await newAgent(`Order desk ${burst}`);
      const startedIn = minute();
      answers = [];
      for (let i = 0; i <= TRIGGERS_PER_MINUTE + 1; i++) {
        answers.push(
          await api(`/agents/${agent}/triggers/new-order`, key, {
            method: 'POST',
            json: { order: i },
            pin: PINS[i % PINS.length],
          }),
        );
      }
      if (minute() === startedIn || burst === 2) break;
    }
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 429, 429]);
    // The calls spread over the instances, and the refusals came from two different ones.
    expect(new Set(answers.map((a) => a.headers.get('x-backend'))).size).toBe(3);
    for (const refused of answers.slice(TRIGGERS_PER_MINUTE)) {
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(((await refused.json()) as { detail: string }).detail).toMatch(/Too many trigger calls/);
    }
    const queued = await cluster.query<{ n: string }>(
      'select count(*) as n from trigger_events where agent_id = $1',
      [agent],
    );
    expect(Number(queued[0]!.n)).toBe(TRIGGERS_PER_MINUTE);
    // Another agent of the same owner has its own count.
    const elsewhere = await api(`/agents/${other}/triggers/new-order`, key, { method: 'POST', json: {} });
    expect(elsewhere.status).toBe(202);
  });

  it('serves the openai client and the MCP SDK client; an approval decided on one instance lets the next call go on from another', async () => {
    const services = (await (await api('/services/', token)).json()) as { id: number; name: string }[];
    const notes = services.find((s) => s.name === 'Notes')!;
    const registered = await api(`/services/${notes.id}/register_noauth_service`, token, { method: 'POST' });
    expect(registered.status).toBe(200);
    const [createNote] = await cluster.query<{ id: number }>(
      "select id from actions where service_id = $1 and name = 'create_note'",
      [notes.id],
    );
    const agent = await newAgent('Note taker', [createNote!.id]);
    const { key } = await newKey({ name: 'code', scopes: ['chat'], agent_ids: [agent] });
    const client = (pin: string) =>
      new OpenAI({
        apiKey: key,
        baseURL: `${cluster.url}/backend/openai/v1`,
        maxRetries: 0,
        defaultHeaders: { 'x-pin-backend': pin },
      });

    expect((await client('cadre1').models.list()).data.map((m) => m.id)).toEqual([`note-taker-${agent}`]);
    const stream = await client('cadre2').chat.completions.create({
      model: String(agent),
      messages: [{ role: 'user', content: 'hello there' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toMatch(/tok/);
    expect(chunks.at(-1)!.usage!.total_tokens).toBeGreaterThan(0);

    const ask = 'tool create_note {"title":"call the bank"}';
    const first = await client('cadre1').chat.completions.create({
      model: String(agent),
      messages: [{ role: 'user', content: ask }],
    });
    const answer = first.choices[0]!.message.content!;
    const threadId = first.id.replace(/^chatcmpl-/, '');
    expect(answer).toContain(`${cluster.url}/agents/${agent}/chat/${threadId}`);

    // The owner approves in Cadre's chat, served by another instance.
    const [approval] = await cluster.query<{ id: string; user_id: number }>(
      'select id, user_id from approvals where thread_id = $1',
      [threadId],
    );
    const approved = await fetch(`${cluster.url}/chainlit/approvals/${approval!.id}/approve`, {
      method: 'POST',
      headers: {
        ...(await chatFrameHeaders(cluster.url, token, agent, 'cadre2')),
        'x-pin-backend': 'cadre2',
      },
      body: '{}',
    });
    expect(approved.status).toBe(200);
    await approved.text();
    expect(await cluster.query('select title from notes where user_id = $1', [approval!.user_id])).toEqual([
      { title: 'call the bank' },
    ]);

    // The caller's next call, on a third instance, goes on in that thread.
    const next = await client('cadre3').chat.completions.create({
      model: String(agent),
      messages: [
        { role: 'user', content: ask },
        { role: 'assistant', content: answer },
        { role: 'user', content: 'thank you' },
      ],
    });
    expect(next.id).toBe(first.id);
    const roles = await cluster.query<{ role: string }>(
      'select role from messages where thread_id = $1 order by created_at',
      [threadId],
    );
    expect(roles.map((r) => r.role)).toEqual(['user', 'assistant', 'user', 'assistant']);

    // The MCP SDK's client, each request landing wherever HAProxy sends it (stateless).
    const mcp = new Client({ name: 'cluster-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${cluster.url}/backend/mcp/${agent}`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name)).toEqual(['ask_note_taker']);
      const result = await mcp.callTool({ name: 'ask_note_taker', arguments: { message: 'hello' } });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.content)).toMatch(/tok/);
    } finally {
      await mcp.close();
    }
  });
});
