import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { printedAccessCode } from './harness.ts';
import { redeemCode, signUp, tokenRequest } from './http-browser.ts';
import { sharedCluster, type SharedCluster } from './shared-cluster.ts';

/**
 * Three built instances on one PostgreSQL behind HAProxy, driven over HTTP as an operator's users
 * would: every request may land on a different instance, and the database's connections fail.
 * A stopped or frozen database is outage.cluster.test.ts's.
 */
let cluster: SharedCluster;
let accessCode: string;

beforeAll(async () => {
  cluster = await sharedCluster();
  // No BETA_ACCESS_CODES: each instance prints the code it uses (at each start); they must all use one.
  const printed = cluster.instances.map(printedAccessCode);
  accessCode = printed[0]!;
  expect(accessCode).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
  expect(printed).toEqual([accessCode, accessCode, accessCode]);
}, 120_000);

const api = (path: string, token: string, init: RequestInit & { pin?: string } = {}) =>
  fetch(`${cluster.url}/backend/api/v1${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.pin ? { 'x-pin-backend': init.pin } : {}),
      ...(init.headers as Record<string, string>),
    },
  });

describe('three instances behind HAProxy', () => {
  let token: string;

  it('signs a new person in with the steps spread over the instances, and every instance accepts the token', async () => {
    const { browser, code, verifier } = await signUp(cluster.url, { email: 'ada@example.com', accessCode });
    const tokens = await redeemCode(cluster.url, code, verifier);
    expect(tokens.status).toBe(200);
    token = tokens.body.access_token!;
    const backends = new Set(browser.hops.map((hop) => hop.backend));
    expect(backends.size).toBe(3);
    // Round-robin: each step of the flow ran on another instance than the step before it, so
    // nothing one step left in an instance's memory could have served the next.
    browser.hops.slice(1).forEach((hop, i) => {
      expect(hop.backend, `${hop.method} ${hop.path}`).not.toBe(browser.hops[i]!.backend);
    });
    for (const pin of ['cadre1', 'cadre2', 'cadre3']) {
      const res = await api('/users/check-user', token, { method: 'POST', pin });
      expect(res.status, pin).toBe(200);
    }
  });

  it('accepts the one generated access code on every instance', async () => {
    for (const pin of ['cadre1', 'cadre2', 'cadre3']) {
      const res = await fetch(`${cluster.url}/backend/api/v1/public/beta-user-signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-pin-backend': pin },
        body: JSON.stringify({ password: accessCode }),
      });
      expect(res.status, pin).toBe(200);
    }
  });

  it('redeems one authorization code exactly once when all three instances receive it at once', async () => {
    const { code, verifier } = await signUp(cluster.url, { email: 'racer@example.com', accessCode });
    const answers = await Promise.all(
      ['cadre1', 'cadre2', 'cadre3'].map((pin) => redeemCode(cluster.url, code, verifier, pin)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body.error])).toEqual([
      [400, 'invalid_grant'],
      [400, 'invalid_grant'],
    ]);

    // The same refresh token used on three instances at once. Not the raced code's: a code
    // redeemed twice revokes its grant (RFC 6749 4.1.2), so those tokens may already be dead.
    const fresh = await signUp(cluster.url, { email: 'refresher@example.com', accessCode });
    const winner = await redeemCode(cluster.url, fresh.code, fresh.verifier);
    expect(winner.status).toBe(200);
    const refreshes = await Promise.all(
      ['cadre1', 'cadre2', 'cadre3'].map((pin) =>
        tokenRequest(
          cluster.url,
          { grant_type: 'refresh_token', refresh_token: winner.body.refresh_token! },
          pin,
        ),
      ),
    );
    // Exactly one rotates; the two others are told the grant is invalid, and the family is dead.
    const rotated = refreshes.filter((r) => r.status === 200);
    expect(rotated).toHaveLength(1);
    expect(refreshes.filter((r) => r.status !== 200).map((r) => [r.status, r.body.error])).toEqual([
      [400, 'invalid_grant'],
      [400, 'invalid_grant'],
    ]);
    const next = await tokenRequest(cluster.url, {
      grant_type: 'refresh_token',
      refresh_token: rotated[0]!.body.refresh_token!,
    });
    expect(next.status).toBe(400);
    expect(next.body.error).toBe('invalid_grant');
  });

  it('keeps every process up when PostgreSQL kills all of their connections, and the next requests succeed', async () => {
    for (let round = 0; round < 3; round += 1) {
      const killed = await cluster.query<{ n: number }>(
        `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and application_name <> 'cluster-test'`,
      );
      expect(killed[0]!.n).toBeGreaterThan(0);
      // The next requests meet dead pooled connections and start again on new ones: all 2xx.
      for (let i = 0; i < 6; i += 1) {
        const res = await api('/agents/', token);
        expect(res.status).toBe(200);
      }
      const after = await Promise.all(
        ['cadre1', 'cadre2', 'cadre3'].map((pin) => api('/agents/', token, { pin })),
      );
      expect(after.map((r) => r.status)).toEqual([200, 200, 200]);
    }
    for (const instance of cluster.instances) expect(instance.process.exitCode).toBeNull();
  });

  it('retries a create with its Idempotency-Key on another instance without creating it twice', async () => {
    const key = crypto.randomUUID();
    const body = JSON.stringify({ name: 'Idempotent', description: 'Created once', tool_ids: [] });
    const first = await api('/agents/', token, {
      method: 'POST',
      body,
      pin: 'cadre1',
      headers: { 'idempotency-key': key },
    });
    const retry = await api('/agents/', token, {
      method: 'POST',
      body,
      pin: 'cadre2',
      headers: { 'idempotency-key': key },
    });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(await retry.json()).toEqual(await first.json());
    const rows = await cluster.query<{ n: number }>(
      `select count(*)::int as n from agents where name = 'Idempotent'`,
    );
    expect(rows[0]!.n).toBe(1);
  });
});

describe('configuration that would split the cluster', () => {
  it('refuses to start on PostgreSQL without SECRETS_KEY, naming the setting and how to make one', async () => {
    const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
      cwd: new URL('../../../../', import.meta.url),
      env: { ...process.env, ...cluster.env, SECRETS_KEY: '', PORT: '0', DATA_DIR: '/tmp/cadre-no-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain('SECRETS_KEY: must be set when DATABASE_URL is set');
    expect(output).toContain('openssl rand -hex 32');
  });
});
