/**
 * The processes `npm run bench` starts, and what it reads of them from /proc: CPU time and
 * resident memory, which (unlike requests/s) hardly move with what else the machine runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/cluster/harness.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const CADRE_MAIN = path.join(ROOT, 'apps/server/dist/main.js');

/** Clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) the process has used so far, in ms (10 ms resolution). */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

const statusKb = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

/** Resident memory now, in MiB. */
export const rssMiB = (pid: number) => statusKb(pid, 'VmRSS') / 1024;

/** Samples the process's RSS every 100 ms until stopped; returns the highest, in MiB. */
export function sampleRss(pid: number): () => number {
  let peak = rssMiB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 100);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rssMiB(pid));
  };
}

export interface Child {
  process: ChildProcess;
  /** The JSON line the child printed once it was listening. */
  info: Record<string, string>;
  stop(): Promise<void>;
}

const stopper = (child: ChildProcess) => {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return async () => {
    child.kill('SIGTERM');
    await exited;
  };
};

/** Runs one of the bench's TypeScript helpers (fake-model.ts, ceiling.ts) in its own process. */
export async function startHelper(script: string, args: string[]): Promise<Child> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL(script, import.meta.url)), ...args],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const info = await new Promise<Record<string, string>>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as Record<string, string>);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
  });
  return { process: child, info, stop: stopper(child) };
}

export interface Cadre extends Child {
  url: string;
  port: number;
  pid: number;
  /** Spawn until `/health/ready` first answered 200. */
  readyMs: number;
  /** The CPU time the process had used by then. */
  readyCpuMs: number;
}

/**
 * Starts the built server (`node apps/server/dist/main.js`, as production runs it) on `dataDir`
 * with `env` over the bench's defaults, its log lines going to `dataDir/server.log`, and waits
 * until it answers ready (polled every 10 ms). A restart passes the port it had: PUBLIC_URL names
 * it, and the tokens and chat sessions issued before are bound to that origin.
 */
export async function startCadre(
  dataDir: string,
  env: Record<string, string>,
  /** `main`: another build of the server than the tree's (to compare two builds side by side). */
  options: { port?: number; nodeFlags?: string[]; main?: string } = {},
): Promise<Cadre> {
  const main = options.main ?? CADRE_MAIN;
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first.`);
  fs.mkdirSync(dataDir, { recursive: true });
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const log = fs.openSync(path.join(dataDir, 'server.log'), 'a');
  const started = performance.now();
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), main], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      // Not asked to wait for a load balancer when stopped (a CPU profile is written on exit).
      SHUTDOWN_DRAIN_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  for (;;) {
    if (exited !== undefined) {
      const tail = fs.readFileSync(path.join(dataDir, 'server.log'), 'utf8').slice(-2000);
      throw new Error(`Cadre exited (${exited}) while starting:\n${tail}`);
    }
    try {
      const res = await fetch(`${url}/backend/api/v1/public/health/ready`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const readyMs = performance.now() - started;
  return {
    process: child,
    info: {},
    url,
    port,
    pid: child.pid!,
    readyMs,
    readyCpuMs: cpuMs(child.pid!),
    stop: stopper(child),
  };
}

/** Tokens in every answer of the fake model the benches start; the first and last as streamed. */
export const MODEL_TOKENS = 50;
export const MODEL_STREAM_ENDS = { firstToken: 'tok1 ', lastToken: `tok${MODEL_TOKENS} ` };

/**
 * The fake OpenAI-compatible model (fake-model.ts) and the settings that point a Cadre at it with
 * the chat rate limit at its maximum, as every chat bench measures it.
 */
export async function startFakeModel() {
  const model = await startHelper('./fake-model.ts', [String(MODEL_TOKENS)]);
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    BETA_ACCESS_CODES: 'bench',
    LLM_PROVIDER: 'openai-compatible',
    LLM_MODEL: 'fake-model',
    LLM_BASE_URL: model.info.url!,
    CHAT_TURNS_PER_MINUTE: '10000',
  };
  return { model, env };
}
