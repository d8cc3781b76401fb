import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { freePort } from './harness.ts';

/**
 * `npm start` (scripts/start.mjs) on the built tree: it builds only a part older than its sources,
 * and a start with nothing to build is ready in under 2 s. The machine running the tests is shared,
 * so the bound is on the CPU time the process used until it was ready (what it costs by itself),
 * not on the wall-clock time, which other work on the same cores stretches; both are printed.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-start-'));
const serverBuild = path.join(root, 'apps/server/dist/main.js');

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

/** CPU time (user + system) a process has used, from /proc (clock ticks of 10 ms). */
function cpuMsOf(pid: number) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Runs `node scripts/start.mjs` until ready; its output, the time from spawn to ready and its CPU time. */
async function startOnce(port: number) {
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: path.join(work, 'data'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    await expect
      .poll(
        async () =>
          (await fetch(`http://127.0.0.1:${port}/backend/api/v1/public/health/ready`).catch(() => undefined))
            ?.status,
        { timeout: 60_000, interval: 50 },
      )
      .toBe(200);
    const readyAfterMs = performance.now() - started;
    const cpuMs = cpuMsOf(child.pid!);
    child.kill('SIGINT');
    expect(await exited, output).toBe(0);
    return { output, readyAfterMs, cpuMs };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

it('starts the built tree without building, ready in under 2 s, and rebuilds only a part older than its sources', async () => {
  const port = await freePort();
  // The first start creates and migrates the database; the second is the one that counts.
  await startOnce(port);
  const warm = await startOnce(port);
  expect(warm.output).not.toContain('Building');
  console.log(
    `npm start on a built tree: ready after ${Math.round(warm.readyAfterMs)} ms, ${warm.cpuMs} ms of CPU (load average ${os.loadavg()[0]!.toFixed(1)})`,
  );
  expect(warm.cpuMs).toBeLessThan(2_000);

  // The server's build is older than its sources (as after a pull): that part alone is built.
  fs.utimesSync(serverBuild, new Date(0), new Date(0));
  const stale = await startOnce(port);
  expect(stale.output).toContain('Building the server');
  expect(stale.output).not.toMatch(/Building the (web app|chat frame)/);
  expect(fs.statSync(serverBuild).mtimeMs).toBeGreaterThan(Date.now() - 120_000);
}, 300_000);
