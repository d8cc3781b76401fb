import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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

  it('serves, then shuts down cleanly on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-proc-'));
    const child = spawn(tsx, [main], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'test', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr.on('data', (d) => (output += d));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
      child.stdout.on('data', (d: Buffer) => {
        output += d;
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
    });
    const health = await fetch(`${url}/backend/api/v1/public/health/healthcheck`);
    expect(await health.json()).toEqual({ status: 'ok', database: 'ok' });

    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(output).toContain('shutting down');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
