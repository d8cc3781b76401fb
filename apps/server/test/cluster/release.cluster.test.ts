import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, inject, it } from 'vitest';
import { freePort } from './harness.ts';
import type { ReleaseBuildOutcome } from './release-build.ts';

/**
 * The Dockerfile's steps, outside a container (there is no container engine here): the release
 * script builds a production copy, drops the development dependencies, and the copy runs as an
 * unprivileged user on a fresh data folder. The script started with the run (release-build.ts).
 */
const { work, out, outcome } = inject('releaseBuild');

/** As root (CI), run as `nobody`; otherwise as the current, already unprivileged, user. */
function unprivileged(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  return {
    uid: Number(execFileSync('id', ['-u', 'nobody']).toString().trim()),
    gid: Number(execFileSync('id', ['-g', 'nobody']).toString().trim()),
  };
}

it('builds a release with production dependencies only, which runs as an unprivileged user', async () => {
  await expect.poll(() => fs.existsSync(outcome), { timeout: 590_000, interval: 500 }).toBe(true);
  const build = JSON.parse(fs.readFileSync(outcome, 'utf8')) as ReleaseBuildOutcome;
  expect(build.code, build.output).toBe(0);
  const has = (p: string) => fs.existsSync(path.join(out, p));
  expect(has('apps/server/dist/main.js')).toBe(true);
  expect(has('apps/web/dist/index.html')).toBe(true);
  expect(has('apps/chat/dist/copilot/index.js')).toBe(true);
  expect(has('node_modules/fastify')).toBe(true);
  // Development dependencies and sources the build already bundled are gone.
  for (const devOnly of [
    'node_modules/vitest',
    'node_modules/typescript',
    'node_modules/vite',
    'node_modules/react',
    'e2e',
    'apps/server/test',
  ])
    expect(has(devOnly), devOnly).toBe(false);

  const user = unprivileged();
  const dataDir = path.join(work, 'data');
  fs.mkdirSync(dataDir);
  fs.chmodSync(work, 0o755);
  if (user) fs.chownSync(dataDir, user.uid, user.gid);
  const port = await freePort();
  const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: out,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      // Pages are served on PUBLIC_URL's host only (others are redirected to it).
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...user,
  });
  let output = '';
  server.stdout.on('data', (d: Buffer) => (output += d.toString()));
  server.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
  try {
    const base = `http://127.0.0.1:${port}`;
    await expect
      .poll(
        async () =>
          (await fetch(`${base}/backend/api/v1/public/health/ready`).catch(() => undefined))?.status,
        {
          timeout: 20_000,
          interval: 200,
        },
      )
      .toBe(200);
    const page = await fetch(`${base}/agents`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect((await fetch(`${base}/chainlit/copilot/index.js`)).status).toBe(200);
    if (user) {
      const owner = fs.statSync(path.join(dataDir, 'cadre.sqlite')).uid;
      expect(owner).toBe(user.uid);
    }
    server.kill('SIGTERM');
    expect(await exited, output).toBe(0);
  } finally {
    if (server.exitCode === null) server.kill('SIGKILL');
  }
}, 600_000);
