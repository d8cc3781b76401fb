import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where deploy/build-release.sh builds (`out`), and the file its outcome is written to when it ends. */
    releaseBuild: { work: string; out: string; outcome: string };
  }
}

/** What the build left in `outcome`. */
export interface ReleaseBuildOutcome {
  code: number | null;
  signal: string | null;
  output: string;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * Starts deploy/build-release.sh as the run starts, at a low CPU priority: it is mostly `npm ci`
 * and a build, a minute or more, and runs on what the cluster files, which mostly wait on drains,
 * sweeps and restarts, leave of the cores. At nice 10 a process at the normal priority gets about
 * nine tenths of a core both want, so the cluster files' timings hold, and the build still gets
 * a tenth of a machine busy with other work (at nice 19, a seventieth). release.cluster.test.ts
 * runs after the cluster files, waits for the outcome and checks the release. Ended, with its
 * folder, at the end.
 */
export default function setup(project: TestProject) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-release-'));
  const out = path.join(work, 'app');
  const outcome = path.join(work, 'build-outcome.json');
  const build = spawn('nice', ['-n', '10', 'bash', path.join(root, 'deploy/build-release.sh'), root, out], {
    // Its own process group, so that the teardown ends npm and node under it too.
    detached: true,
    // The lockfile pins each package and its checksum, and `npm ci` here finds them in the cache
    // the project's own install filled; it would still ask the registry about each of them again
    // (2,300 requests, half of the build's time on this machine).
    env: { ...process.env, npm_config_prefer_offline: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  build.stdout.on('data', (d: Buffer) => (output += d.toString()));
  build.stderr.on('data', (d: Buffer) => (output += d.toString()));
  build.on('close', (code, signal) =>
    fs.writeFileSync(outcome, JSON.stringify({ code, signal, output } satisfies ReleaseBuildOutcome)),
  );
  project.provide('releaseBuild', { work, out, outcome });
  return () => {
    if (build.exitCode === null && build.signalCode === null) process.kill(-build.pid!, 'SIGKILL');
    fs.rmSync(work, { recursive: true, force: true });
  };
}
