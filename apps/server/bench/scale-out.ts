/**
 * The API's agent list and chat turns through HAProxy with one, two and three built instances on
 * one PostgreSQL (the cluster tests' harness: apps/server/test/cluster/harness.ts), to see how far
 * throughput grows with instances on this machine. `npm run bench:scale-out` builds first, then
 * runs both halves (`tsx apps/server/bench/scale-out.ts api` or `chat` runs one, on a built tree);
 * each merges its half into the "## Scale-out" section of docs/benchmarks.md (the figures of both
 * halves are kept in a comment there), whose closing note is worked out from the figures.
 *
 *   tsx apps/server/bench/scale-out.ts [api|chat|all|report]   (report: rewrite the section, measure nothing)
 */
import fs from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { BENCHMARKS_FILE, percentile, writeBenchSection } from '../../../scripts/bench-report.ts';
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

/** One half of the figures (the list's or the chat's), with the conditions it was measured in. */
interface Half {
  date: string;
  cores: number;
  node: string;
  /** Load average (1 min) at the end: other work on the machine competes for its cores. */
  load: number;
  seconds: number;
  rows: Figures[];
}
interface Stored {
  list?: Half;
  chat?: Half;
  /** The halves the latest runs replaced: on a shared machine, one run alone says little. */
  previous?: { list?: Half; chat?: Half };
}

const DATA_MARK = 'scale-out figures';
const HEADING = '## Scale-out';

/** The figures the section holds now (both halves), from its data comment. */
function storedFigures(): Stored {
  const text = fs.existsSync(BENCHMARKS_FILE) ? fs.readFileSync(BENCHMARKS_FILE, 'utf8') : '';
  const match = new RegExp(`<!-- ${DATA_MARK}: (.*?) -->`).exec(text);
  return match ? (JSON.parse(match[1]!) as Stored) : {};
}

const number = (v: number | undefined, unit = '') =>
  v === undefined ? '–' : `${v.toLocaleString('en')}${unit}`;

/**
 * Where a throughput stops growing with instances, from the figures: "grows with every instance"
 * or "grows from 1 to N, then falls/flattens", with the values.
 */
function growth(label: string, points: { instances: number; value: number }[], unit: string) {
  if (points.length < 2) return '';
  const peak = points.reduce((best, p) => (p.value > best.value ? p : best));
  const values = points.map((p) => `${number(p.value)} ${unit} with ${p.instances}`).join(', ');
  if (peak === points.at(-1)) return `${label} grows with every instance added here (${values}).`;
  if (peak === points[0]) return `${label} does not grow with a second instance (${values}).`;
  return `${label} grows up to ${peak.instances} instances and stops growing there (${values}).`;
}

function section(stored: Stored): string {
  const byInstances = new Map<number, Figures>();
  for (const half of [stored.list, stored.chat])
    for (const row of half?.rows ?? [])
      byInstances.set(row.instances, { ...byInstances.get(row.instances), ...row });
  const rows = [...byInstances.values()].sort((a, b) => a.instances - b.instances);
  const when = (name: string, half?: Half) =>
    half
      ? `${name}: ${half.date}, ${half.cores} CPU cores, Node ${half.node}, ${half.seconds} s per count, load average (1 min) ${half.load.toFixed(1)} at the end`
      : `${name}: not measured yet`;
  const cores = stored.list?.cores ?? stored.chat?.cores ?? os.cpus().length;
  const list = growth(
    'List throughput',
    rows.filter((r) => r.listRps !== undefined).map((r) => ({ instances: r.instances, value: r.listRps! })),
    'req/s',
  );
  const chat = growth(
    'Chat throughput',
    rows
      .filter((r) => r.turnsPerSecond !== undefined)
      .map((r) => ({ instances: r.instances, value: r.turnsPerSecond! })),
    'turns/s',
  );
  const cpu = rows.filter((r) => r.cpuMsPerRequest !== undefined);
  const before = (name: string, metric: 'listRps' | 'turnsPerSecond', unit: string, half?: Half) =>
    half
      ? growth(
          `${name} (${half.date}, load average ${half.load.toFixed(1)})`,
          half.rows
            .filter((r) => r[metric] !== undefined)
            .map((r) => ({ instances: r.instances, value: r[metric]! })),
          unit,
        )
      : '';
  const previous = [
    before('List', 'listRps', 'req/s', stored.previous?.list),
    before('Chat', 'turnsPerSecond', 'turns/s', stored.previous?.chat),
  ].filter(Boolean);
  const loads = [stored.list?.load, stored.chat?.load].filter((l): l is number => l !== undefined);
  return [
    HEADING,
    '',
    `\`npm run bench:scale-out\` runs \`apps/server/bench/scale-out.ts\` for the list and for chat turns ` +
      `(\`api\` or \`chat\` runs one), each replacing its half of this table. The built server as N instances on one PostgreSQL 15 behind HAProxy ` +
      `(deploy/haproxy.cfg, round-robin per request), a fake OpenAI-compatible model streaming ${TOKENS} tokens, and the ` +
      `load generator, all on the same cores. List: GET /backend/api/v1/agents/ (20 agents × 5 tools) with ` +
      `${LIST_CONNECTIONS} connections. Chat: ${CHAT_CONCURRENCY} clients sending turns back to back, each timed to its last chunk.`,
    '',
    `- ${when('List', stored.list)}.`,
    `- ${when('Chat', stored.chat)}.`,
    '',
    '| Instances | List req/s | List p50 / p99 (ms) | Cadre CPU per list request | Chat turns/s | Turn p50 / p99 (ms) | Errors |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.instances} | ${number(r.listRps)} | ${number(r.listP50)} / ${number(r.listP99)} | ${number(r.cpuMsPerRequest, ' ms')} | ` +
        `${number(r.turnsPerSecond)} | ${number(r.turnP50)} / ${number(r.turnP99)} | ${(r.listErrors ?? 0) + (r.turnErrors ?? 0)} |`,
    ),
    '',
    [
      'What the figures say:',
      list,
      chat,
      `Why it stops: the machine has ${cores} cores, and every instance, PostgreSQL, HAProxy, the fake model and the load ` +
        `generator share them, so once they are busy another instance brings no CPU, only a proxy hop and more ` +
        `database connections per request` +
        (cpu.length > 1
          ? ` (Cadre's CPU per list request: ${cpu.map((r) => `${number(r.cpuMsPerRequest, ' ms')} with ${r.instances}`).join(', ')}).`
          : '.'),
      `The cores were also shared with other work while these ran (load average ${loads.map((l) => l.toFixed(1)).join(' and ')} ` +
        `on ${cores} cores at the end of the runs), so the absolute figures are low and move from one run to the next; ` +
        'compare the rows of one run. With a core per instance the list should scale further, until PostgreSQL ' +
        'saturates (not measured here). What more instances buy here is availability: no request fails while one of them is killed, drained ' +
        'or redeployed (see "Crash and failover" below). The Errors column must stay 0.',
      previous.length > 0 ? `The run before: ${previous.join(' ')}` : '',
    ]
      .filter(Boolean)
      .join(' '),
    '',
    `<!-- ${DATA_MARK}: ${JSON.stringify(stored)} -->`,
    '',
    '',
  ].join('\n');
}

async function main() {
  // Writes the section again from the figures it holds (after a change to how it is written).
  if (what === 'report') return writeBenchSection(HEADING, section(storedFigures()));
  const rows: Figures[] = [];
  for (const n of INSTANCES) rows.push(await measure(n));
  const measured = (pick: (r: Figures) => Partial<Figures>): Half => ({
    date: new Date().toISOString().slice(0, 10),
    cores: os.cpus().length,
    node: process.version,
    load: os.loadavg()[0]!,
    seconds: SECONDS,
    rows: rows.map((r) => ({ instances: r.instances, ...pick(r) })),
  });
  const stored = storedFigures();
  stored.previous = {
    list: what === 'chat' ? stored.previous?.list : stored.list,
    chat: what === 'api' ? stored.previous?.chat : stored.chat,
  };
  if (what !== 'chat')
    stored.list = measured(({ listRps, listP50, listP99, listErrors, cpuMsPerRequest }) => ({
      listRps,
      listP50,
      listP99,
      listErrors,
      cpuMsPerRequest,
    }));
  if (what !== 'api')
    stored.chat = measured(({ turnsPerSecond, turnP50, turnP99, turnErrors }) => ({
      turnsPerSecond,
      turnP50,
      turnP99,
      turnErrors,
    }));
  writeBenchSection(HEADING, section(stored));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
