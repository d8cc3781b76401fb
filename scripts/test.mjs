// `npm test`: everything a change can break, in order — system prerequisites, typecheck, lint and
// format, unit and integration tests (SQLite and PostgreSQL), the production build, the cluster
// tests (built instances behind HAProxy and nginx, and the release build), and end-to-end tests in
// Chromium. Stops at the first failing step and says which one.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const problems = [];
const chromium = process.env.CHROME_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  problems.push(
    `Chromium not found at ${chromium}: install the Debian package 'chromium' (or set CHROME_PATH).`,
  );
}
const pgRoot = '/usr/lib/postgresql';
const hasPostgres =
  (fs.existsSync(pgRoot) &&
    fs.readdirSync(pgRoot).some((v) => fs.existsSync(path.join(pgRoot, v, 'bin', 'initdb')))) ||
  (process.env.PATH ?? '').split(':').some((dir) => dir && fs.existsSync(path.join(dir, 'pg_ctl')));
if (!hasPostgres) {
  problems.push(
    "PostgreSQL server binaries (initdb, pg_ctl) not found: install the Debian package 'postgresql'.",
  );
}
const hasHaproxy = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].some((file) => fs.existsSync(file));
if (!hasHaproxy) {
  problems.push("HAProxy not found: install the Debian package 'haproxy' (the cluster tests run behind it).");
}
if (!['/usr/sbin/nginx', '/usr/bin/nginx'].some((file) => fs.existsSync(file))) {
  problems.push(
    "nginx not found: install the Debian package 'nginx' (a cluster test runs deploy/nginx.conf).",
  );
}
if (problems.length) {
  console.error(`npm test cannot run:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}

const steps = [
  ['typecheck', 'npm', ['run', 'typecheck']],
  ['lint', 'npm', ['run', 'lint']],
  ['format', 'npm', ['run', 'format:check']],
  ['unit and integration tests (SQLite and PostgreSQL)', 'npx', ['vitest', 'run']],
  ['build', 'npm', ['run', 'build']],
  [
    'cluster tests (3 built instances on PostgreSQL behind HAProxy and nginx; the release build)',
    'npx',
    ['vitest', 'run', '--config', 'vitest.cluster.config.ts'],
  ],
  ['end-to-end tests in Chromium', 'npm', ['test', '-w', 'e2e']],
];

const started = Date.now();
for (const [name, command, args] of steps) {
  const stepStart = Date.now();
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  const seconds = ((Date.now() - stepStart) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\nnpm test failed at: ${name} (${seconds}s)`);
    process.exit(result.status ?? 1);
  }
  console.log(`=== ${name}: passed in ${seconds}s ===`);
}
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)}s.`);
