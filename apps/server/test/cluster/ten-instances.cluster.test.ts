import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_CACHE_MS } from '../../src/modules/api-keys/service.ts';
import { printedAccessCode, startCluster, type Cluster } from './harness.ts';
import { chatFrameHeaders, redeemCode, signUp } from './http-browser.ts';
import { webAppClient } from './web-app-client.ts';

/**
 * The connection budget of docs/deployment.md at ten instances: ten built instances behind HAProxy,
 * their queries through PgBouncer in transaction mode (`deploy/pgbouncer.ini`), their LISTEN
 * connections straight to PostgreSQL, which has its default `max_connections` of 100 (ten pools of
 * 10 plus ten listeners would need 110). The cross-instance flows run again here: a create on one
 * instance read on another, a Stop sent to another instance than the run's and the one-run rule,
 * and a signal (an API key's revocation) that only LISTEN/NOTIFY carries in time.
 */
const INSTANCES = 10;
const SCRAPE_TOKEN = 'ten-instances-scrape-token-0123456789';
const pins = Array.from({ length: INSTANCES }, (_, i) => `cadre${i + 1}`);
let cluster: Cluster;
let token: string;

beforeAll(async () => {
  cluster = await startCluster({
    instances: INSTANCES,
    pgbouncer: true,
    postgresMaxConnections: 100,
    env: { METRICS_SCRAPE_TOKEN: SCRAPE_TOKEN, IDP_SIGNUPS_PER_HOUR: '1000' },
  });
  const { code, verifier } = await signUp(cluster.url, {
    email: 'ten@example.com',
    accessCode: printedAccessCode(cluster.instances[0]!),
  });
  token = (await redeemCode(cluster.url, code, verifier)).body.access_token!;
}, 180_000);

afterAll(() => cluster?.stop());

const api = (path: string, bearer: string, pin: string, init: { method?: string; json?: unknown } = {}) =>
  fetch(`${cluster.url}/backend/api/v1${path}`, {
    method: init.method ?? 'GET',
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
    headers: {
      authorization: `Bearer ${bearer}`,
      'x-pin-backend': pin,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
  });

describe('ten instances through PgBouncer and HAProxy', () => {
  it('creates on one instance what every other one reads, within PostgreSQL’s default connection limit', async () => {
    const web = await webAppClient(cluster.url, token);
    const created = await web.saveNewAgent('Ten desks', 'Answers from any instance');
    const reads = await Promise.all(pins.map((pin) => api(`/agents/${created.id}/agent`, token, pin)));
    expect(reads.map((r) => r.status)).toEqual(pins.map(() => 200));
    expect(new Set(reads.map((r) => r.headers.get('x-backend')))).toEqual(new Set(pins));

    // A burst that would open every instance's pool: 200 reads at once, spread over the ten.
    const burst = await Promise.all(
      Array.from({ length: 200 }, (_, i) => api('/agents/', token, pins[i % INSTANCES]!)),
    );
    expect(burst.filter((r) => r.status !== 200)).toEqual([]);

    // Each instance: its queries through PgBouncer, one LISTEN connection of its own.
    const sessions = await cluster.query<{ application_name: string; n: number }>(
      `select application_name, count(*)::int as n from pg_stat_activity
        where datname = current_database() group by application_name`,
    );
    const count = (name: string) => sessions.find((s) => s.application_name === name)?.n ?? 0;
    const total = sessions.reduce((sum, s) => sum + s.n, 0);
    console.log(
      `ten instances: ${total} PostgreSQL sessions on the database (${count('cadre-signals')} listeners, ` +
        `${count('')} through PgBouncer, ${count('cluster-test')} the test's), max_connections 100`,
    );
    expect(count('cadre-signals')).toBe(INSTANCES);
    // PgBouncer's default_pool_size bounds the query connections, whatever the instances' pools.
    expect(count('')).toBeLessThanOrEqual(20);
    expect(total).toBeLessThan(100);

    const metrics = await fetch(`${cluster.url}/backend/metrics`, {
      headers: { authorization: `Bearer ${SCRAPE_TOKEN}`, 'x-pin-backend': 'cadre4' },
    });
    const body = await metrics.text();
    expect(body).toMatch(/^cadre_db_pool_size 10$/m);
    expect(body).toMatch(/^cadre_db_pool_waiting 0$/m);
    expect(body).toMatch(/^cadre_chat_runs_running 0$/m);
    expect(body).toMatch(/^cadre_run_lease_expiries_total 0$/m);
  });

  it('stops a run from another instance and refuses a second turn meanwhile, across the ten', async () => {
    const agent = await webAppClient(cluster.url, token).then((web) => web.saveNewAgent('Talker', 'Talks'));
    const headers = await chatFrameHeaders(cluster.url, token, agent.id, 'cadre2');
    const running = await fetch(`${cluster.url}/chainlit/chat`, {
      method: 'POST',
      headers: { ...headers, 'x-pin-backend': 'cadre2', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ text: 'slow 300 20' }),
    });
    expect(running.status).toBe(200);
    const threadId = running.headers.get('x-thread-id')!;
    const reader = running.body!.pipeThrough(new TextDecoderStream()).getReader();
    let streamed = '';
    while ((streamed.match(/"text-delta"/g) ?? []).length < 3) streamed += (await reader.read()).value ?? '';

    const second = await fetch(`${cluster.url}/chainlit/chat`, {
      method: 'POST',
      headers: { ...headers, 'x-pin-backend': 'cadre7', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ threadId, text: 'meanwhile' }),
    });
    expect(second.status).toBe(409);
    expect(((await second.json()) as { code: string }).code).toBe('run_in_progress');

    const sent = Date.now();
    const { 'content-type': _json, ...bodiless } = headers;
    const stop = await fetch(`${cluster.url}/chainlit/threads/${threadId}/stop`, {
      method: 'POST',
      headers: { ...bodiless, 'x-pin-backend': 'cadre9' },
    });
    expect(await stop.json()).toMatchObject({ stopped: true, outcome: 'stopped' });
    while (!(await reader.read()).done);
    expect(Date.now() - sent).toBeLessThan(1_000);
    const [answer] = await cluster.query<{ status: string }>(
      `select status from messages where thread_id = $1 and role = 'assistant'`,
      [threadId],
    );
    expect(answer!.status).toBe('interrupted');
  });

  it('carries a signal to the other nine through the direct LISTEN connections: a revoked key is refused at once', async () => {
    const created = await api('/api-keys', token, 'cadre1', {
      method: 'POST',
      json: { name: 'ten', scopes: ['agents:read'] },
    });
    const { id, key } = (await created.json()) as { id: number; key: string };
    // Every instance verified the key and holds it in its cache for API_KEY_CACHE_MS.
    for (const pin of pins) expect((await api('/agents/', key, pin)).status, pin).toBe(200);
    const revokedAt = Date.now();
    expect((await api(`/api-keys/${id}`, token, 'cadre1', { method: 'DELETE' })).status).toBe(204);
    for (const pin of pins.slice(1)) {
      await expect
        .poll(async () => (await api('/agents/', key, pin)).status, {
          interval: 25,
          timeout: API_KEY_CACHE_MS,
        })
        .toBe(401);
    }
    // Before any cache would have let the key go: the NOTIFY reached every instance.
    expect(Date.now() - revokedAt).toBeLessThan(API_KEY_CACHE_MS);
  });
});
