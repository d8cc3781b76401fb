// `npm test`: everything a change can break, in order — system prerequisites; typecheck, lint and
// format (side by side); unit and integration tests (SQLite and PostgreSQL); the production build;
// the cluster tests (built instances behind HAProxy and nginx, and the release build); end-to-end
// tests in Chromium. Stops at the first failing phase and says which one. At the end it prints a
// table of the phases and their times; `npm test -- --record` also writes it into docs/benchmarks.md.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

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

/**
 * The phases, in order. A phase of several commands runs them side by side: typecheck, lint and
 * format are independent and each mostly uses one core. Their output is held and printed whole
 * when each ends, so the logs do not interleave.
 */
const phases = [
  {
    name: 'typecheck, lint and format',
    commands: [
      ['typecheck', 'npm', ['run', 'typecheck']],
      ['lint', 'npm', ['run', 'lint']],
      ['format', 'npm', ['run', 'format:check']],
    ],
  },
  {
    name: 'unit and integration tests (SQLite and PostgreSQL)',
    commands: [['vitest', 'npx', ['vitest', 'run']]],
  },
  { name: 'build', commands: [['build', 'npm', ['run', 'build']]] },
  {
    name: 'cluster tests (3 built instances on PostgreSQL behind HAProxy and nginx; the release build)',
    commands: [['cluster', 'npx', ['vitest', 'run', '--config', 'vitest.cluster.config.ts']]],
  },
  { name: 'end-to-end tests in Chromium', commands: [['e2e', 'npm', ['test', '-w', 'e2e']]] },
];

/** Runs one command; with `hold`, its output is kept and printed when it ends. */
function run([label, command, args], hold) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, {
      cwd: root,
      env: process.env,
      stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const seconds = (Date.now() - started) / 1000;
      if (hold) {
        console.log(`\n--- ${label} (${seconds.toFixed(1)} s) ---`);
        process.stdout.write(Buffer.concat(output));
      }
      resolve({ label, seconds, ok: code === 0, code: code ?? (signal ? 1 : 0) });
    });
  });
}

const results = [];
const started = Date.now();
let failed;
for (const phase of phases) {
  console.log(`\n=== ${phase.name} ===`);
  const phaseStart = Date.now();
  const hold = phase.commands.length > 1;
  const ran = await Promise.all(phase.commands.map((command) => run(command, hold)));
  const seconds = (Date.now() - phaseStart) / 1000;
  results.push({ name: phase.name, seconds, ran, ok: ran.every((r) => r.ok) });
  const bad = ran.find((r) => !r.ok);
  if (bad) {
    failed = { phase: phase.name, label: bad.label, code: bad.code, seconds };
    break;
  }
  console.log(`=== ${phase.name}: passed in ${seconds.toFixed(1)} s ===`);
}
const total = (Date.now() - started) / 1000;

const table = phaseTable(results, total, failed);
console.log(`\n${table}`);
if (failed) {
  console.error(
    `\nnpm test failed at: ${failed.phase} (${failed.label}, after ${failed.seconds.toFixed(1)} s)`,
  );
  process.exit(failed.code || 1);
}
console.log(`\nAll checks passed in ${total.toFixed(0)} s.`);
if (process.argv.includes('--record')) record(table);

function phaseTable(rows, seconds, failure) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  const lines = [
    line(['phase', 'time', 'result']),
    line(['---', '---:', '---']),
    ...rows.map((row) =>
      line([
        row.ran.length > 1
          ? `${row.name} (${row.ran.map((r) => `${r.label} ${r.seconds.toFixed(0)} s`).join(', ')})`
          : row.name,
        `${row.seconds.toFixed(0)} s`,
        row.ok ? 'passed' : 'FAILED',
      ]),
    ),
    line(['**npm test**', `**${seconds.toFixed(0)} s**`, failure ? 'FAILED' : 'passed']),
  ];
  return lines.join('\n');
}

/** Writes the table between the markers in docs/benchmarks.md, with the machine it ran on. */
function record(table) {
  const file = path.join(root, 'docs/benchmarks.md');
  const begin = '<!-- test-phases:begin -->';
  const end = '<!-- test-phases:end -->';
  const doc = fs.readFileSync(file, 'utf8');
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) {
    console.error(`docs/benchmarks.md has no ${begin} … ${end} section to record the phases in.`);
    process.exit(1);
  }
  const machine =
    `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ` +
    `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ` +
    `load average ${os.loadavg()[0].toFixed(1)} at the end`;
  const section = `${begin}\n\`npm test\` on ${new Date().toISOString().slice(0, 10)}, ${machine}:\n\n${table}\n${end}`;
  fs.writeFileSync(file, doc.slice(0, from) + section + doc.slice(to + end.length));
  console.log('Phase times written to docs/benchmarks.md.');
}
