/**
 * The API's agent list and chat turns through HAProxy with one and with three built instances on
 * one PostgreSQL (the cluster tests' harness: apps/server/test/cluster/harness.ts), to see how far
 * throughput grows with instances on this machine. `npm run bench:scale-out` builds first, then
 * runs both; writes the "## Scale-out" section of docs/benchmarks.md.
 *
 *   tsx apps/server/bench/scale-out.ts [api|chat|all]
 */
import fs from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { percentile, writeBenchSection } from '../../../scripts/bench-report.ts';
import { startCluster, type Cluster } from '../test/cluster/harness.ts';
import { chatFrameHeaders, redeemCode, signUp } from '../test/cluster/http-browser.ts';

const what = process.argv[2] ?? 'all';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const LIST_CONNECTIONS = 20;
const CHAT_CONCURRENCY = 10;
const TOKENS = 50;
const INSTANCES = [1, 2, 3];

interface Figures {
  instances: number;
  listRps?: number;
  listP50?: number;
  listP99?: number;
  listErrors?: number;
  turnsPerSecond?: number;
  turnP50?: number;
  turnP99?: number;
  turnErrors?: number;
  cpuMsPerRequest?: number;
}

async function signIn(cluster: Cluster) {
  const { code, verifier } = await signUp(cluster.url, { email: 'bench@example.com', accessCode: 'bench' });
  return (await redeemCode(cluster.url, code, verifier)).body.access_token!;
}

/** 20 agents of up to 5 tools each from a no-auth built-in service, as the single-process bench. */
async function seed(cluster: Cluster, token: string) {
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${cluster.url}/backend/api/v1${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
    });
  const services = (await (await api('/services/')).json()) as { id: number; auth_schemes: string[] }[];
  const noAuth = services.find((s) => s.auth_schemes.includes('NO_AUTH'))!;
  await api(`/services/${noAuth.id}/register_noauth_service`, { method: 'POST' });
  const actions = (await (await api(`/services/${noAuth.id}/actions`)).json()) as { id: number }[];
  const toolIds = actions.slice(0, 5).map((a) => a.id);
  let agentId = 0;
  for (let i = 0; i < 20; i++) {
    const res = await api('/agents/', {
      method: 'POST',
      body: JSON.stringify({ name: `Agent ${i}`, description: 'Benchmark agent', tool_ids: toolIds }),
    });
    agentId = ((await res.json()) as { id: number }).id;
  }
  return agentId;
}

/** Clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) used so far by the cluster's Cadre processes, from /proc. */
function cadreCpuSeconds(cluster: Cluster): number {
  let total = 0;
  for (const instance of cluster.instances) {
    const stat = fs.readFileSync(`/proc/${instance.process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    total += (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  }
  return total;
}

function list(cluster: Cluster, token: string): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${cluster.url}/backend/api/v1/agents/`,
        connections: LIST_CONNECTIONS,
        duration: SECONDS,
        headers: { authorization: `Bearer ${token}` },
        workers: 1,
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

async function chat(cluster: Cluster, token: string, agentId: number) {
  const headers = await chatFrameHeaders(cluster.url, token, agentId);
  const times: number[] = [];
  let errors = 0;
  const deadline = Date.now() + SECONDS * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CHAT_CONCURRENCY }, async () => {
      while (Date.now() < deadline) {
        const t0 = performance.now();
        const res = await fetch(`${cluster.url}/chainlit/chat`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ text: 'tell me something' }),
        });
        const text = await res.text();
        if (res.status !== 200 || !text.includes('"finish"')) {
          errors += 1;
          console.warn(`turn failed: ${res.status} ${text.slice(-300)}`);
        } else times.push(performance.now() - t0);
      }
    }),
  );
  const wall = (Date.now() - started) / 1000;
  return {
    turnsPerSecond: times.length / wall,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    errors,
  };
}

async function measure(instances: number): Promise<Figures> {
  const cluster = await startCluster({
    instances,
    modelTokens: TOKENS,
    env: { BETA_ACCESS_CODES: 'bench', CHAT_TURNS_PER_MINUTE: '10000', LOG_LEVEL: 'warn' },
  });
  try {
    const token = await signIn(cluster);
    const agentId = await seed(cluster, token);
    const figures: Figures = { instances };
    if (what !== 'chat') {
      const cpuBefore = cadreCpuSeconds(cluster);
      const result = await list(cluster, token);
      figures.listRps = Math.round(result.requests.total / result.duration);
      figures.listP50 = result.latency.p50;
      figures.listP99 = result.latency.p99;
      figures.listErrors = result.errors + result.timeouts + result.non2xx;
      figures.cpuMsPerRequest =
        Math.round(((cadreCpuSeconds(cluster) - cpuBefore) * 1000 * 100) / result.requests.total) / 100;
    }
    if (what !== 'api') {
      const c = await chat(cluster, token, agentId);
      figures.turnsPerSecond = Math.round(c.turnsPerSecond * 10) / 10;
      figures.turnP50 = Math.round(c.p50);
      figures.turnP99 = Math.round(c.p99);
      figures.turnErrors = c.errors;
    }
    console.log(figures);
    return figures;
  } finally {
    await cluster.stop();
  }
}

async function main() {
  const rows: Figures[] = [];
  for (const n of INSTANCES) rows.push(await measure(n));
  const cell = (v: number | undefined, unit = '') =>
    v === undefined ? '–' : `${v.toLocaleString('en')}${unit}`;
  writeBenchSection(
    '## Scale-out',
    [
      '## Scale-out',
      '',
      `\`tsx apps/server/bench/scale-out.ts ${what}\` (\`npm run bench:scale-out\` runs \`all\`), ` +
        `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPU cores, Node ${process.version}. The built ` +
        `server as N instances on one PostgreSQL 15 behind HAProxy (deploy/haproxy.cfg, round-robin per request), a ` +
        `fake OpenAI-compatible model streaming ${TOKENS} tokens, and the load generator, all on the same cores. ` +
        `List: GET /backend/api/v1/agents/ (20 agents × 5 tools) for ${SECONDS} s with ${LIST_CONNECTIONS} connections. ` +
        `Chat: ${CHAT_CONCURRENCY} clients sending turns back to back for ${SECONDS} s, each timed to its last chunk. ` +
        `Load average (1 min) ${os.loadavg()[0]!.toFixed(1)} at the end.`,
      '',
      '| Instances | List req/s | List p50 / p99 (ms) | Cadre CPU per list request | Chat turns/s | Turn p50 / p99 (ms) | Errors |',
      '|---:|---:|---:|---:|---:|---:|---:|',
      ...rows.map(
        (r) =>
          `| ${r.instances} | ${cell(r.listRps)} | ${cell(r.listP50)} / ${cell(r.listP99)} | ${cell(r.cpuMsPerRequest, ' ms')} | ` +
          `${cell(r.turnsPerSecond)} | ${cell(r.turnP50)} / ${cell(r.turnP99)} | ${(r.listErrors ?? 0) + (r.turnErrors ?? 0)} |`,
      ),
      '',
      'What the figures say: every instance, PostgreSQL, HAProxy, the fake model and the load generator share ' +
        'the same 2 cores, so a second or third instance cannot add throughput here; it adds a proxy hop and ' +
        'more database connections per request (CPU per request grows with the instance count). What more ' +
        'instances buy is availability: no request fails while one of them is killed, drained or redeployed ' +
        '(see "Crash and failover" below). On machines with a core per instance the list scales until PostgreSQL ' +
        'saturates. The Errors column must stay 0: every request and turn answered, over HAProxy, on every instance. ' +
        'Figures from one run to the next move with the load of the machine (compare the load average).',
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
