import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

describe('server process', () => {
  it('exits non-zero naming PORT when PORT is invalid', () => {
    const result = spawnSync(tsx, [main], {
      env: { ...process.env, PORT: 'abc', NODE_ENV: 'test' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/PORT: .*"abc"/);
  });

  it('exits non-zero naming LLM_BASE_URL when openai-compatible has no base URL', () => {
    const result = spawnSync(tsx, [main], {
      env: { ...process.env, NODE_ENV: 'test', LLM_PROVIDER: 'openai-compatible', LLM_MODEL: 'llama3.1' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/LLM_BASE_URL: must be set when LLM_PROVIDER=openai-compatible/);
  });

  it('R12: serves, survives unhandled rejections, logs and counts each, then shuts down cleanly on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-proc-'));
    // R12's probe, loaded before main.ts: it rejects a promise nobody listens to once the test
    // creates the trigger file.
    const probe = path.join(dataDir, 'r12-probe.mjs');
    const trigger = path.join(dataDir, 'r12-trigger');
    fs.writeFileSync(
      probe,
      `import fs from 'node:fs';
setInterval(() => {
  if (!fs.existsSync(${JSON.stringify(trigger)})) return;
  fs.rmSync(${JSON.stringify(trigger)});
  Promise.reject(new Error('r12-probe'));
}, 50).unref();
`,
    );
    const child = spawn(tsx, ['--import', pathToFileURL(probe).href, main], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'test', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A failed run leaves no server behind.
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let output = '';
    child.stderr.on('data', (d) => (output += d));
    // The test's own timeout is the start deadline; a server that dies on start fails at once.
    const url = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${output}`)));
      child.stdout.on('data', (d: Buffer) => {
        output += d;
        // Not a TTY: the start-up report is a JSON line with the socket it listens on.
        const match = /"listeningOn":"(127\.0\.0\.1:\d+)"/.exec(output);
        if (match) resolve(`http://${match[1]!}`);
      });
    });
    const health = await fetch(`${url}/backend/api/v1/public/health/healthcheck`);
    expect(await health.json()).toEqual({ status: 'ok', database: 'ok' });

    // R12: a promise rejected with nobody listening is logged and counted; the server keeps serving.
    const live = async () =>
      (await fetch(`${url}/backend/api/v1/public/health/live`)).json() as Promise<Record<string, unknown>>;
    expect(await live()).toEqual({ status: 'live', unhandled_rejections: 0 });
    const rejectionLines = () =>
      output
        .split('\n')
        .filter((line) => line.includes('unhandled promise rejection'))
        .map((line) => JSON.parse(line) as { unhandledRejections: number; err: { message: string } });
    for (const count of [1, 2]) {
      fs.writeFileSync(trigger, '');
      await expect.poll(() => rejectionLines().length, { timeout: 10_000 }).toBe(count);
      expect(rejectionLines().at(-1)).toMatchObject({
        unhandledRejections: count,
        err: { message: 'r12-probe' },
      });
      expect(await live()).toEqual({ status: 'live', unhandled_rejections: count });
    }
    const after = await fetch(`${url}/backend/api/v1/public/health/healthcheck`);
    expect(after.status).toBe(200);

    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(output).toContain('shutting down');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
