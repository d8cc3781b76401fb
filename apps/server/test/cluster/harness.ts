import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.ts';
import {
  endPostgresIn,
  freePort,
  startPostgresCluster,
  type PostgresCluster,
} from '../support/postgres-cluster.ts';

/**
 * Several built Cadre servers (`apps/server/dist/main.js`, as production runs them) on one
 * throwaway PostgreSQL, behind a real HAProxy from Debian configured from `deploy/haproxy.cfg`
 * (and, when asked, nginx from `deploy/nginx.conf` in front of the same instances, or PgBouncer from
 * `deploy/pgbouncer.ini` between the instances and PostgreSQL), with a fake
 * OpenAI-compatible model. Requests go round-robin through the proxy; every response says which
 * instance answered in `x-backend`, and behind HAProxy the header `x-pin-backend: cadreN` pins one
 * request to one instance.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const MAIN = path.join(root, 'apps/server/dist/main.js');

export interface Instance {
  name: string;
  port: number;
  /** Every line the process wrote (JSON logs). */
  logs: string[];
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
  process: ChildProcess;
  /** Sends a signal (SIGTERM for a deploy, SIGKILL for a crash). */
  signal(signal: NodeJS.Signals): void;
}

export interface Cluster {
  /** HAProxy's URL, and PUBLIC_URL: what a browser or client would use. */
  url: string;
  /** nginx's URL, when started with `nginx: true`. */
  nginxUrl: string | undefined;
  pg: PostgresCluster;
  databaseUrl: string;
  model: FakeOpenAi;
  instances: Instance[];
  /** The environment every instance shares. */
  env: Record<string, string>;
  /** Starts (or restarts) instance `index` with the shared settings plus `env`. */
  startInstance(index: number, env?: Record<string, string>): Promise<Instance>;
  /** Waits until the instance answers ready on its own port. */
  waitReady(instance: Instance, timeoutMs?: number): Promise<void>;
  /** Runs SQL against the cluster's database from outside Cadre. */
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

/** The access code an instance printed at start (none when BETA_ACCESS_CODES is set). */
export const printedAccessCode = (instance: Instance) =>
  instance.logs.map((line) => /"Access code: ([A-Z0-9-]+)/.exec(line)?.[1]).find(Boolean);

export { freePort };

/**
 * Asks `ready` every 100 ms until it says yes (a throw counts as not yet); past 10 s, throws what
 * `failure` says (the process's logs).
 */
async function pollUntil(ready: () => Promise<boolean>, failure: () => string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(failure());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function findProxy(proxy: ProxyKind): string {
  for (const candidate of [`/usr/sbin/${proxy}`, `/usr/bin/${proxy}`])
    if (fs.existsSync(candidate)) return candidate;
  throw new Error(
    `${proxy} was not found: install the Debian package '${proxy}' (the cluster tests run behind it).`,
  );
}

/** `deploy/haproxy.cfg` with this run's listen address and instances, plus pinning for the tests. */
export function haproxyConfig(listenPort: number, servers: { name: string; port: number }[]): string {
  const documented = fs.readFileSync(path.join(root, 'deploy/haproxy.cfg'), 'utf8');
  const serverLines = servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check`).join('\n');
  const testOnly = [
    '  # Test only: pin a request with x-pin-backend, and say who answered.',
    ...servers.map((s) => `  use-server ${s.name} if { req.hdr(x-pin-backend) -m str ${s.name} }`),
    '  http-response set-header x-backend %[srv_name]',
  ].join('\n');
  const config = documented
    .replace(/^ {2}bind .*$/m, `  bind 127.0.0.1:${listenPort}`)
    .replace(/ {2}# servers:begin[\s\S]*# servers:end/, `${testOnly}\n${serverLines}`);
  if (!config.includes(`127.0.0.1:${listenPort}`) || !config.includes(servers[0]!.name))
    throw new Error(
      'deploy/haproxy.cfg no longer has the bind line or the servers markers the test fills in',
    );
  return config;
}

/**
 * A whole nginx configuration around `deploy/nginx.conf` (the part the docs tell you to include in
 * `http`), with this run's listen address and instances, files under `work`, and the test's
 * `x-backend` header naming the instance that answered.
 */
export function nginxConfig(
  listenPort: number,
  servers: { name: string; port: number }[],
  work: string,
): string {
  const documented = fs.readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8');
  const serverLines = servers
    .map((s) => `  server 127.0.0.1:${s.port} max_fails=2 fail_timeout=5s;`)
    .join('\n');
  const names = servers.map((s) => `    127.0.0.1:${s.port} ${s.name};`).join('\n');
  const site = documented
    .replace(/^ {2}listen .*$/m, `  listen 127.0.0.1:${listenPort};`)
    .replace(/ {2}# servers:begin[\s\S]*# servers:end/, serverLines)
    .replace(/^ {4}proxy_pass .*$/gm, (line) => `${line}\n    add_header x-backend $backend_name always;`);
  if (!site.includes(`127.0.0.1:${listenPort}`) || !site.includes(`127.0.0.1:${servers[0]!.port}`))
    throw new Error(
      'deploy/nginx.conf no longer has the listen line or the servers markers the test fills in',
    );
  return [
    `pid ${work}/nginx.pid;`,
    `error_log ${work}/nginx-error.log warn;`,
    'daemon off;',
    // As root the workers would switch to `nobody`, who cannot write the temporary folders below.
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'events { worker_connections 1024; }',
    'http {',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
      (kind) => `  ${kind}_temp_path ${work}/${kind};`,
    ),
    `  map $upstream_addr $backend_name {\n    default $upstream_addr;\n${names}\n  }`,
    site,
    '}',
  ].join('\n');
}

/**
 * `deploy/pgbouncer.ini` with this run's addresses: PostgreSQL's database behind the recipe's
 * `cadre` entry, and trust in place of SCRAM (the test cluster trusts local connections).
 */
export function pgbouncerConfig(listenPort: number, databaseUrl: string, work: string): string {
  const documented = fs.readFileSync(path.join(root, 'deploy/pgbouncer.ini'), 'utf8');
  const target = new URL(databaseUrl);
  const config = documented
    .replace(
      /(;; databases:begin\n)cadre = host=\S+ port=\d+ dbname=\S+/,
      `$1cadre = host=${target.hostname} port=${target.port} dbname=${target.pathname.slice(1)}`,
    )
    .replace(/^listen_addr = .*$/m, 'listen_addr = 127.0.0.1')
    .replace(/^listen_port = .*$/m, `listen_port = ${listenPort}`)
    .replace(/^auth_type = .*$/m, 'auth_type = trust')
    .replace(/^auth_file = .*$/m, `auth_file = ${work}/pgbouncer-users.txt`);
  if (!config.includes(`port=${target.port}`) || !config.includes(`listen_port = ${listenPort}`))
    throw new Error(
      'deploy/pgbouncer.ini no longer has the cadre database line or the settings the test fills in',
    );
  // No Unix socket: the instances connect over TCP, and nothing is left behind in /tmp.
  return `${config}\nunix_socket_dir =\n`;
}

/**
 * Starts PgBouncer on `deploy/pgbouncer.ini` in front of `databaseUrl`; resolves with the URL the
 * instances' queries use. As root it runs as `postgres` (PgBouncer refuses root), who must read
 * its files.
 */
async function startPgbouncer(
  databaseUrl: string,
  work: string,
  track: (child: ChildProcess, endWith: NodeJS.Signals) => void,
): Promise<string> {
  const bin = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((candidate) => fs.existsSync(candidate));
  if (!bin) throw new Error("pgbouncer was not found: install the Debian package 'pgbouncer'.");
  const port = await freePort();
  const user = new URL(databaseUrl).username;
  const configFile = path.join(work, 'pgbouncer.ini');
  fs.writeFileSync(configFile, pgbouncerConfig(port, databaseUrl, work));
  fs.writeFileSync(path.join(work, 'pgbouncer-users.txt'), `"${user}" ""\n`);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) fs.chmodSync(work, 0o755);
  const child = spawn(bin, [...(asRoot ? ['-u', 'postgres'] : []), configFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child, 'SIGKILL');
  const logs: string[] = [];
  child.stderr!.on('data', (d: Buffer) => logs.push(d.toString()));
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${port}`;
  url.pathname = '/cadre';
  await pollUntil(
    async () => {
      const probe = new pg.Client({ connectionString: url.href });
      try {
        await probe.connect();
        await probe.query('select 1');
        return true;
      } finally {
        await probe.end().catch(() => {});
      }
    },
    () => `pgbouncer did not start:\n${logs.join('')}`,
  );
  return url.href;
}

export async function startCluster(
  options: {
    instances?: number;
    /**
     * PgBouncer (`deploy/pgbouncer.ini`) between the instances and PostgreSQL: their queries go
     * through it (DATABASE_URL), their LISTEN connection straight to PostgreSQL (DATABASE_LISTEN_URL).
     */
    pgbouncer?: boolean;
    /** PostgreSQL's `max_connections` (see `startPostgresCluster`). */
    postgresMaxConnections?: number;
    env?: Record<string, string>;
    modelTokens?: number;
    /** Also nginx (deploy/nginx.conf) in front of the same instances, at `nginxUrl`. */
    nginx?: boolean;
    /**
     * An empty folder for its files (a new temporary one otherwise). `endClusterIn` can end what
     * runs there from another process, for a caller that may be gone before it could call `stop`.
     */
    work?: string;
  } = {},
): Promise<Cluster> {
  if (!fs.existsSync(MAIN))
    throw new Error(`${MAIN} is missing: run \`npm run build\` first (npm run test:cluster does).`);
  const proxyKinds: ProxyKind[] = options.nginx ? ['haproxy', 'nginx'] : ['haproxy'];
  const proxyBins = proxyKinds.map(findProxy);
  const count = options.instances ?? 3;
  const work = options.work ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-cluster-'));
  const running = new Map<number, NodeJS.Signals>();
  const pgCluster = await startPostgresCluster({ maxConnections: options.postgresMaxConnections });
  const noteRunning = () =>
    fs.writeFileSync(
      path.join(work, RUNNING_FILE),
      JSON.stringify({ postgres: pgCluster.dir, processes: [...running] } satisfies RunningRecord),
    );
  /** Listed until it exits, with the signal that ends it at once. */
  const track = (child: ChildProcess, endWith: NodeJS.Signals) => {
    running.set(child.pid!, endWith);
    noteRunning();
    child.once('exit', () => {
      running.delete(child.pid!);
      try {
        noteRunning();
      } catch {
        // The folder is gone: the cluster was ended.
      }
    });
  };
  noteRunning();
  const dbName = `cadre_cluster_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgCluster.url });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const databaseUrl = pgCluster.url.replace(/\/postgres$/, `/${dbName}`);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2, application_name: 'cluster-test' });
  // Our own connections die when the tests stop PostgreSQL; that must not fail the test process.
  pool.on('error', () => {});
  const pooledUrl = options.pgbouncer ? await startPgbouncer(databaseUrl, work, track) : undefined;
  const model = await startFakeOpenAi({ tokens: options.modelTokens });
  const proxyPorts = await Promise.all(proxyKinds.map(() => freePort()));
  const [url, nginxUrl] = proxyPorts.map((port) => `http://127.0.0.1:${port}`);
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    PUBLIC_URL: url!,
    TRUST_PROXY: 'true',
    DATABASE_URL: pooledUrl ?? databaseUrl,
    ...(pooledUrl && { DATABASE_LISTEN_URL: databaseUrl }),
    SECRETS_KEY: crypto.randomBytes(32).toString('hex'),
    LLM_PROVIDER: 'openai-compatible',
    LLM_MODEL: 'fake-model',
    LLM_BASE_URL: model.url,
    EGRESS_ALLOW_PRIVATE: '127.0.0.1',
    CHAT_TURNS_PER_MINUTE: '1000',
    SHUTDOWN_TIMEOUT_MS: '3000',
    // Longer than HAProxy's check interval × fall (2 s × 2 in deploy/haproxy.cfg).
    SHUTDOWN_DRAIN_DELAY_MS: '4500',
    LOG_LEVEL: 'info',
    ...options.env,
  };

  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const instances: Instance[] = [];

  async function startInstance(index: number, extra: Record<string, string> = {}): Promise<Instance> {
    const name = `cadre${index + 1}`;
    const port = ports[index]!;
    const dataDir = path.join(work, name);
    fs.mkdirSync(dataDir, { recursive: true });
    const child = spawn(process.execPath, [MAIN], {
      cwd: root,
      env: { ...process.env, ...env, ...extra, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    track(child, 'SIGKILL');
    const logs: string[] = [];
    const collect = (data: Buffer) => logs.push(...data.toString().split('\n').filter(Boolean));
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const instance: Instance = { name, port, logs, exited, process: child, signal: (s) => child.kill(s) };
    instances[index] = instance;
    return instance;
  }

  // Generous: a start needs about 1.5 s of CPU, and beside the crash test's own writers and chats
  // (or anything else on a 2-core machine) it gets a small share of the cores: 13 s of loading was
  // seen before main() ran. This bounds a hang; start time is measured by the benchmarks instead.
  async function waitReady(instance: Instance, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    let exitCode: number | null | undefined;
    void instance.exited.then((code) => (exitCode = code));
    while (Date.now() < deadline) {
      if (exitCode !== undefined)
        throw new Error(
          `${instance.name} exited with ${exitCode} while starting:\n${instance.logs.join('\n')}`,
        );
      try {
        const res = await fetch(`http://127.0.0.1:${instance.port}/backend/api/v1/public/health/ready`);
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${instance.name} was not ready within ${timeoutMs} ms:\n${instance.logs.join('\n')}`);
  }

  // The first instance migrates; the others start together once it is up, as a rolling deploy would.
  await waitReady(await startInstance(0));
  await Promise.all(ports.slice(1).map(async (_, i) => waitReady(await startInstance(i + 1))));

  const servers = instances.map(({ name, port }) => ({ name, port }));
  const proxies = await Promise.all(
    proxyKinds.map((kind, i) => {
      const configFile = path.join(work, `${kind}.conf`);
      fs.writeFileSync(
        configFile,
        kind === 'nginx'
          ? nginxConfig(proxyPorts[i]!, servers, work)
          : haproxyConfig(proxyPorts[i]!, servers),
      );
      const args = kind === 'nginx' ? ['-c', configFile, '-p', work] : ['-f', configFile, '-db'];
      return startProxy(kind, proxyBins[i]!, args, proxyPorts[i]!, track);
    }),
  );

  return {
    url: url!,
    nginxUrl,
    pg: pgCluster,
    databaseUrl,
    model,
    instances,
    env,
    startInstance,
    waitReady,
    async query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
      return (await pool.query<T>(text, values)).rows;
    },
    async stop() {
      await Promise.all(proxies.map((proxy) => proxy.stop()));
      for (const instance of instances) {
        if (instance && instance.process.exitCode === null && instance.process.signalCode === null)
          instance.signal('SIGKILL');
      }
      await Promise.all(instances.map((i) => i?.exited));
      await pool.end().catch(() => {});
      await model.close();
      await pgCluster.stop();
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}

type ProxyKind = 'haproxy' | 'nginx';

/**
 * nginx's master stops its workers when asked (SIGTERM); killed outright, it leaves them running
 * after the test. HAProxy runs as one process.
 */
const proxyStopSignal = (kind: ProxyKind): NodeJS.Signals => (kind === 'nginx' ? 'SIGTERM' : 'SIGKILL');

/** Starts a proxy and waits until it passes requests on to an instance. */
async function startProxy(
  kind: ProxyKind,
  bin: string,
  args: string[],
  port: number,
  track: (child: ChildProcess, endWith: NodeJS.Signals) => void,
) {
  const proxy = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  track(proxy, proxyStopSignal(kind));
  const proxyExited = new Promise<void>((resolve) => proxy.once('exit', () => resolve()));
  const proxyLogs: string[] = [];
  proxy.stderr!.on('data', (d: Buffer) => proxyLogs.push(d.toString()));
  await pollUntil(
    async () => (await fetch(`http://127.0.0.1:${port}/backend/api/v1/public/health/live`)).ok,
    () => `${kind} did not start:\n${proxyLogs.join('')}`,
  );
  return {
    async stop() {
      // A proxy that does not stop in time is killed.
      proxy.kill(proxyStopSignal(kind));
      const killLate = setTimeout(() => proxy.kill('SIGKILL'), 5_000);
      await proxyExited;
      clearTimeout(killLate);
    },
  };
}

const RUNNING_FILE = 'running.json';

/** What runs for a cluster: its PostgreSQL's folder, and each process with the signal that ends it. */
interface RunningRecord {
  postgres: string;
  processes: [pid: number, signal: NodeJS.Signals][];
}

/** Ends what still runs of the cluster started in `work` (see `startCluster`), and removes it. */
export async function endClusterIn(work: string) {
  const file = path.join(work, RUNNING_FILE);
  if (fs.existsSync(file)) {
    const record = JSON.parse(fs.readFileSync(file, 'utf8')) as RunningRecord;
    for (const [pid, signal] of record.processes) {
      try {
        process.kill(pid, signal);
      } catch {
        // ended meanwhile
      }
    }
    await endPostgresIn(record.postgres);
  }
  fs.rmSync(work, { recursive: true, force: true });
}
