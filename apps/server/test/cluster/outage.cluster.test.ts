import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { redeemCode, signUp, tokenRequest } from './http-browser.ts';
import { sharedCluster, type SharedCluster } from './shared-cluster.ts';

/**
 * A database outage as clients behind the documented recipes see it (docs/deployment.md, "When the
 * database fails"): through HAProxy (deploy/haproxy.cfg) and nginx (deploy/nginx.conf), with
 * PostgreSQL stopped and then frozen with SIGSTOP, the API answers Cadre's own JSON 503
 * `db_unavailable` with Retry-After, the web app and /health/live still load, and everything
 * recovers without a restart. The shared cluster runs the default database bounds.
 */
let cluster: SharedCluster;
let token: string;

/** What docs/deployment.md promises with the defaults: acquire 4 s + statement 10 s + 1 s. */
const DEFAULT_BOUND_MS = 15_000;
const OUTAGE_BODY = { detail: 'Service temporarily unavailable', code: 'db_unavailable' };

beforeAll(async () => {
  cluster = await sharedCluster();
  const { code, verifier } = await signUp(cluster.url, {
    email: 'outage@example.com',
    accessCode: cluster.accessCode,
  });
  token = (await redeemCode(cluster.url, code, verifier)).body.access_token!;
}, 120_000);

const proxies = () => [
  { proxy: 'HAProxy', base: cluster.url },
  { proxy: 'nginx', base: cluster.nginxUrl },
];

const agents = (base: string, pin?: string) =>
  fetch(`${base}/backend/api/v1/agents/`, {
    headers: { authorization: `Bearer ${token}`, ...(pin ? { 'x-pin-backend': pin } : {}) },
  });

const readiness = () =>
  Promise.all(
    cluster.instances.map(async ({ port }) => {
      const res = await fetch(`http://127.0.0.1:${port}/backend/api/v1/public/health/ready`);
      return [res.status, await res.json()];
    }),
  );

/**
 * Through one proxy: the API's 503 from every instance (three requests; returns how long each
 * took), and the pages that need no database.
 */
async function expectOutageAnswers(base: string, proxy: string): Promise<number[]> {
  const waits: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    const started = Date.now();
    const res = await agents(base);
    expect(res.status, proxy).toBe(503);
    expect(res.headers.get('content-type'), proxy).toContain('application/json');
    expect(await res.json(), proxy).toEqual(OUTAGE_BODY);
    expect(Number(res.headers.get('retry-after')), proxy).toBeGreaterThan(0);
    // Cadre's own answer, from an instance: the proxy took none of them out. (HAProxy retries a
    // 503 on the next instances, so which one answered last varies.)
    expect(res.headers.get('x-backend'), proxy).toMatch(/^cadre[123]$/);
    waits.push(Date.now() - started);
    console.info(`${proxy}: 503 db_unavailable in ${waits.at(-1)} ms`);
  }
  const index = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
  expect(index.status, proxy).toBe(200);
  expect(await index.text(), proxy).toContain('<div id="root">');
  const live = await fetch(`${base}/backend/api/v1/public/health/live`);
  expect(live.status, proxy).toBe(200);
  expect(await live.json(), proxy).toMatchObject({ status: 'live' });
  return waits;
}

/** Every instance serves again, by itself, within seconds of the database's return. */
async function expectRecovered() {
  const since = Date.now();
  for (const { proxy, base } of proxies())
    await expect
      .poll(async () => (await agents(base)).status, { timeout: 15_000, interval: 200, message: proxy })
      .toBe(200);
  for (const pin of ['cadre1', 'cadre2', 'cadre3'])
    await expect
      .poll(async () => (await agents(cluster.url, pin)).status, {
        timeout: 15_000,
        interval: 200,
        message: pin,
      })
      .toBe(200);
  // And writes again: each instance's readiness write is answered (the files after this one sign
  // people up, which writes).
  await expect
    .poll(async () => (await readiness()).map(([, body]) => (body as { database?: string }).database), {
      timeout: 15_000,
      interval: 200,
    })
    .toEqual(['ok', 'ok', 'ok']);
  console.info(`recovered: every instance served again ${Date.now() - since} ms after the database returned`);
  for (const instance of cluster.instances) expect(instance.process.exitCode).toBeNull();
}

describe('a database outage behind the documented proxies', () => {
  it('PostgreSQL stopped: the API answers 503 db_unavailable with Retry-After through HAProxy and nginx, the web app and liveness load, and it recovers without a restart', async () => {
    await cluster.pg.halt();
    try {
      // Every instance stays ready and says what its probe found.
      await expect
        .poll(readiness, { timeout: 10_000, interval: 200 })
        .toEqual(Array(3).fill([200, { status: 'ready', database: 'unavailable' }]));
      // Longer than HAProxy takes to put an instance out (2 failed checks 2 s apart): none is.
      await sleep(4_500);
      for (const { proxy, base } of proxies()) await expectOutageAnswers(base, proxy);
      // The identity provider's endpoints say the same, in JSON for a program.
      const idp = await tokenRequest(cluster.url, { grant_type: 'refresh_token', refresh_token: 'any' });
      expect(idp.status).toBe(503);
      expect(idp.body).toEqual(OUTAGE_BODY);
    } finally {
      await cluster.pg.resume();
    }
    await expectRecovered();
  });

  it('PostgreSQL frozen (SIGSTOP): each instance answers 503 within the documented bound, then at once, and recovers after SIGCONT', async () => {
    cluster.pg.freeze();
    try {
      const started = Date.now();
      // Straight to each instance, all at once: what Cadre itself answers, without the proxy.
      const answers = await Promise.all(
        cluster.instances.map(async ({ port }) => {
          const res = await fetch(`http://127.0.0.1:${port}/backend/api/v1/agents/`, {
            headers: { authorization: `Bearer ${token}` },
          });
          return { status: res.status, body: await res.json(), after: Date.now() - started };
        }),
      );
      console.info(`frozen: first answers after ${answers.map((a) => a.after).join(', ')} ms`);
      for (const answer of answers) {
        expect(answer).toMatchObject({ status: 503, body: OUTAGE_BODY });
        expect(answer.after).toBeLessThan(DEFAULT_BOUND_MS);
      }
      // The instances know now that the database answers nothing: requests no longer wait for it,
      // neither through HAProxy, whose retry of a 503 on the next instance would otherwise wait
      // out the timeouts again there, nor through nginx: the instances ask the database themselves
      // whether it is back, and no request waits for that.
      for (const { proxy, base } of proxies()) {
        const waits = await expectOutageAnswers(base, proxy);
        for (const ms of waits) expect(ms, `${proxy}: ${waits.join(', ')} ms`).toBeLessThan(1_000);
      }
    } finally {
      cluster.pg.thaw();
      // Also after a failure: the files after this one share the cluster.
      await expectRecovered();
    }
  });
});
