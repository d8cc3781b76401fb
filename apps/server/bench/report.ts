/**
 * `npm run bench`'s table: Cadre's figures, the reference measured beside them in the same run,
 * their ratio and the target (issue 19), printed and written to docs/benchmarks.md with the machine
 * and the top frames of a list call, a chat turn and a cheap call with a token never cached.
 */
import fs from 'node:fs';
import os from 'node:os';
import { BENCHMARKS_FILE, percentile, writeBenchSection } from '../../../scripts/bench-report.ts';
import { issue28Lines, type ListTargetFigures } from './list-targets.ts';
import type { FirstTokenPairs, Measured, StreamLoad } from './load.ts';
import { longThreadReportRow, type LongThreadRow } from './long-thread.ts';
import type { ProfileSummary } from './profile.ts';

type Profile = ProfileSummary & { rps: number; cpuMsPer: number };

export interface Figures {
  seconds: number;
  listBytes: number;
  list: Measured;
  ceiling: Measured;
  listWithKey: Measured;
  /** Issue 28: the list's 304 beside the bare server's, and the compression checks. */
  listTargets: ListTargetFigures;
  /** GET /backend/api/v1/models with one credential throughout, and with `credentials` in turn. */
  models: {
    token: Measured;
    freshToken: Measured;
    key: Measured;
    freshKey: Measured;
    credentials: number;
  };
  ttft: FirstTokenPairs;
  ttftOpenAi: FirstTokenPairs;
  modelAlone: StreamLoad;
  chat10: StreamLoad;
  chat50: StreamLoad;
  /** The long-thread row (long-thread.ts). */
  longThread?: LongThreadRow;
  coldStart: { ms: number; cpuMs: number; medianMs: number; medianCpuMs: number; count: number };
  idleRssMiB: number;
  idleSeconds: number;
  profiles: { list: Profile; chat: Profile; freshToken: Profile };
  loadAtStart: number[];
  loadAtEnd: number[];
}

const fixed = (n: number | undefined, digits = 1) =>
  n === undefined || Number.isNaN(n)
    ? '—'
    : n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const whole = (n: number | undefined) => fixed(n, 0);
const pct = (a: number, b: number) => `${fixed((100 * a) / b)} %`;
const met = (ok: boolean) => (ok ? 'yes' : '**no**');
/** The CPU column: Cadre's server CPU per request (or turn), and the reference's when measured. */
const cpu = (cadre: number | undefined, reference?: number) =>
  reference === undefined ? `${fixed(cadre, 3)} ms` : `${fixed(cadre, 3)} / ${fixed(reference, 3)} ms`;
const rate = (m: Measured) => `${whole(m.rps)}/s, ${m.p50} / ${m.p99} ms, ${fixed(m.cpuMsPer, 2)} ms`;

function machine(): string {
  const release = fs.existsSync('/etc/os-release')
    ? /PRETTY_NAME="([^"]+)"/.exec(fs.readFileSync('/etc/os-release', 'utf8'))?.[1]
    : undefined;
  const cpu = os.cpus()[0];
  return (
    `${os.cpus().length} × ${cpu?.model.trim() ?? 'unknown CPU'}, ${fixed(os.totalmem() / 2 ** 30)} GiB RAM, ` +
    `${release ?? os.type()} (kernel ${os.release()}), Node ${process.version}`
  );
}

function rows(f: Figures): string[][] {
  const { list, ceiling, ttft, chat10, chat50, modelAlone } = f;
  const added50 = percentile(ttft.added, 50);
  const added99 = percentile(ttft.added, 99);
  const direct50 = percentile(ttft.direct, 50);
  const direct99 = percentile(ttft.direct, 99);
  const cleanRefusals =
    chat50.refused > 0 && chat50.refused === chat50.refusedWithRetryAfter && chat50.errors === 0;
  const peakListRss = Math.max(list.peakRssMiB ?? 0, f.listWithKey.peakRssMiB ?? 0);
  const { models } = f;
  const listErrors =
    list.errors +
    f.listWithKey.errors +
    models.token.errors +
    models.freshToken.errors +
    models.key.errors +
    models.freshKey.errors;
  return [
    [
      `List agents (20 agents × 5 tools, ${whole(f.listBytes)} B), c=10: req/s`,
      whole(list.rps),
      `bare Fastify, same body: ${whole(ceiling.rps)}`,
      pct(list.rps, ceiling.rps),
      '≥ 25 % of the ceiling',
      met(list.rps >= 0.25 * ceiling.rps),
      cpu(list.cpuMsPer, ceiling.cpuMsPer),
    ],
    revalidationRow(f),
    [
      'List: p50 / p99',
      `${list.p50} / ${list.p99} ms`,
      `${ceiling.p50} / ${ceiling.p99} ms`,
      '',
      'p99 ≤ 10 ms',
      met(list.p99 <= 10),
      cpu(list.cpuMsPer, ceiling.cpuMsPer),
    ],
    [
      'Errors (non-2xx other than the 429s below, failed streams, timeouts): list and models, chat',
      `${listErrors}, ${chat10.errors + chat50.errors}`,
      `${ceiling.errors}, ${modelAlone.errors}`,
      '',
      '0',
      met(listErrors + chat10.errors + chat50.errors === 0),
    ],
    [
      'List: server CPU per request',
      `${fixed(list.cpuMsPer, 2)} ms`,
      '',
      '',
      '',
      '',
      cpu(list.cpuMsPer, ceiling.cpuMsPer),
    ],
    [
      'List with an API key instead of the sign-in token: req/s, CPU per request',
      `${whole(f.listWithKey.rps)}, ${fixed(f.listWithKey.cpuMsPer, 2)} ms`,
      `the token: ${whole(list.rps)}, ${fixed(list.cpuMsPer, 2)} ms`,
      pct(f.listWithKey.cpuMsPer!, list.cpuMsPer!),
      'within 10 % (issue 18)',
      met(Math.abs(f.listWithKey.cpuMsPer! / list.cpuMsPer! - 1) <= 0.1),
      cpu(f.listWithKey.cpuMsPer, list.cpuMsPer),
    ],
    [
      `Models list (the cheapest signed-in call), c=10, a sign-in token the server has not cached on every request (${whole(models.credentials)} in turn): req/s, p50 / p99, CPU per request`,
      rate(models.freshToken),
      `one token, cached: ${rate(models.token)}`,
      `${pct(models.freshToken.cpuMsPer!, models.token.cpuMsPer!)} of the CPU`,
      '',
      '',
      cpu(models.freshToken.cpuMsPer, models.token.cpuMsPer),
    ],
    [
      `The same with an API key not cached on every request (${whole(models.credentials)} in turn)`,
      rate(models.freshKey),
      `one key, cached: ${rate(models.key)}`,
      `${pct(models.freshKey.cpuMsPer!, models.key.cpuMsPer!)} of the CPU`,
      '',
      '',
      cpu(models.freshKey.cpuMsPer, models.key.cpuMsPer),
    ],
    [
      `Time to first token added over the model alone, p50 / p99 (${ttft.added.length} sequential pairs)`,
      `${fixed(added50, 2)} / ${fixed(added99, 2)} ms`,
      `the model alone: ${fixed(direct50, 2)} / ${fixed(direct99, 2)} ms`,
      `${fixed(percentile(ttft.through, 50) / direct50, 2)}× / ${fixed(percentile(ttft.through, 99) / direct99, 2)}×`,
      '≤ 3 ms / ≤ 10 ms added',
      met(added50 <= 3 && added99 <= 10),
    ],
    [
      'The same through the OpenAI-compatible API, added p50 / p99',
      `${fixed(percentile(f.ttftOpenAi.added, 50), 2)} / ${fixed(percentile(f.ttftOpenAi.added, 99), 2)} ms`,
      '',
      '',
      '',
      '',
    ],
    [
      `Chat turns/s, c=10, ${50}-token reply (new thread per turn)`,
      fixed(chat10.rps),
      `the model alone, c=10: ${whole(modelAlone.rps)} answers/s`,
      pct(chat10.rps, modelAlone.rps),
      '≥ 250 turns/s',
      met(chat10.rps >= 250),
      cpu(chat10.cpuMsPer),
    ],
    [
      'Chat c=10: turn p50 / p99',
      `${whole(chat10.p50)} / ${whole(chat10.p99)} ms`,
      `${whole(modelAlone.p50)} / ${whole(modelAlone.p99)} ms`,
      '',
      '',
      '',
    ],
    [
      'Chat: server CPU per turn',
      `${fixed(chat10.cpuMsPer, 2)} ms`,
      '',
      '',
      '≤ 4 ms',
      met((chat10.cpuMsPer ?? Infinity) <= 4),
      cpu(chat10.cpuMsPer),
    ],
    [
      'Chat at c=50 (default CHAT_MAX_CONCURRENT): answered turns/s, p99; refused',
      `${fixed(chat50.rps)}/s, p99 ${whole(chat50.p99)} ms; ${chat50.refused} × 429 (${chat50.refusedWithRetryAfter} with Retry-After), ${chat50.errors} errors`,
      '',
      '',
      '≤ 500 ms p99, or clean 429s with Retry-After',
      met(chat50.errors === 0 && (chat50.p99 <= 500 || cleanRefusals)),
      cpu(chat50.cpuMsPer),
    ],
    ...(f.longThread ? [longThreadReportRow(f.longThread)] : []),
    [
      `Cold start to ready, built tree, existing data (median of ${f.coldStart.count}): wall, CPU`,
      `${whole(f.coldStart.medianMs)} ms, ${whole(f.coldStart.medianCpuMs)} ms CPU`,
      `fresh data folder: ${whole(f.coldStart.ms)} ms, ${whole(f.coldStart.cpuMs)} ms CPU`,
      '',
      '≤ 1 s',
      met(f.coldStart.medianMs <= 1000),
    ],
    [
      `RSS idle (${f.idleSeconds} s after ready) / peak under list load`,
      `${whole(f.idleRssMiB)} / ${whole(peakListRss)} MiB`,
      '',
      '',
      '≤ 100 / ≤ 250 MiB',
      met(f.idleRssMiB <= 100 && peakListRss <= 250),
    ],
  ];
}

/**
 * One line per target the table's other rows carry (issue28Lines already says the list's, with
 * its CPU ratio), so the targets block names every target of the run, met or not.
 */
function tableTargetLines(table: string[][]): string[] {
  const listRows = ['List agents', 'List revalidated', 'List: p50'];
  return table
    .filter(([measure, , , , target]) => target && !listRows.some((r) => measure!.startsWith(r)))
    .map(
      ([measure, cadre, , , target, ok]) =>
        `- ${ok === 'yes' ? 'met' : '**not met**'}: ${measure}: ${cadre} (target ${target})`,
    );
}

/** Issue 28: the list revalidated, against the bare server's 304. */
function revalidationRow({ listTargets: { revalidation: r, ceilingRevalidation: c } }: Figures): string[] {
  return [
    "List revalidated (If-None-Match with the list's ETag → 304), c=10: req/s, p50 / p99",
    `${whole(r.rps)}/s, ${r.p50} / ${r.p99} ms, ${r.errors} other answers`,
    `bare Fastify answering 304: ${whole(c.rps)}/s, ${c.p50} / ${c.p99} ms`,
    `${pct(r.cpuMsPer!, c.cpuMsPer!)} of the CPU`,
    '≤ 150 % of the CPU (issue 28)',
    met(r.errors === 0 && r.cpuMsPer! <= 1.5 * c.cpuMsPer!),
    cpu(r.cpuMsPer, c.cpuMsPer),
  ];
}

function profileTable(title: string, p: Profile): string[] {
  return [
    `**${title}** (${fixed(p.busyMs / 1000)} s busy in a ${fixed(p.windowMs / 1000)} s window; ${whole(p.rps)}/s, ` +
      `${fixed(p.cpuMsPer, 2)} ms CPU each while profiled)`,
    '',
    '| # | Function (self time) | Where | ms | % of busy |',
    '|---:|---|---|---:|---:|',
    ...p.top.map(
      (t, i) => `| ${i + 1} | \`${t.name}\` | ${t.where} | ${whole(t.ms)} | ${fixed(t.percent)} |`,
    ),
    '',
    `By package: ${p.packages.map((k) => `${k.name} ${fixed(k.percent)} %`).join(', ')}.`,
    '',
  ];
}

export function writeReport(f: Figures) {
  const table = [
    '| Measure | Cadre | Reference, same run | Cadre ÷ reference | Target | Met | Server CPU per request: Cadre / reference |',
    '|---|---|---|---|---|---|---|',
    // A row without a CPU figure (latency, start-up, memory) gets a dash in that column.
    ...rows(f).map((r) => `| ${[...r, ...(r.length < 7 ? ['—'] : [])].join(' | ')} |`),
  ];
  const targets = [...issue28Lines(f.listTargets), ...tableTargetLines(rows(f))];
  console.log(`\n${table.join('\n')}\n\nIssue 28 targets:\n${targets.join('\n')}\n`);
  const load = (l: number[]) => l.map((v) => v.toFixed(1)).join(' / ');
  const section = [
    '## Side by side (`npm run bench`)',
    '',
    `${new Date().toISOString().slice(0, 10)}: ${machine()}. Load average (1 / 5 / 15 min) ${load(f.loadAtStart)} at the ` +
      `start and ${load(f.loadAtEnd)} at the end; Cadre, the references and the load generator share the cores with ` +
      'whatever else runs, so compare the ratios within one run, not absolute figures across runs.',
    '',
    'One command (apps/server/bench/run.ts) starts, each in its own process, the fake OpenAI-compatible model ' +
      '(test/support/fake-openai.ts, 50 tokens with no delay), the built Cadre (`node apps/server/dist/main.js` on SQLite ' +
      'with default settings, LOG_LEVEL=info and the log written to a file, but the model pointed at the fake and ' +
      'CHAT_TURNS_PER_MINUTE at its maximum, 10,000, over 4 people chatting), and a bare Fastify server answering every ' +
      "request with the list's response body (the ceiling). Cadre is seeded through its API (sign-up at the built-in " +
      `identity provider, 20 agents of 5 built-in tools). Every load run lasts ${f.seconds} s after a warm-up; the ` +
      'server CPU is its utime + stime from /proc over the run, divided by the answers. A chat turn is ' +
      '`POST /chainlit/chat` in a new thread, read to the end of its stream; a client told 429 waits its Retry-After. ' +
      'Time to first token alternates the model alone and the same answer through Cadre, one request at a time. ' +
      'The models rows call `GET /backend/api/v1/models` (a fixed body naming the one model offered), with one ' +
      "credential throughout (checked in full once, then answered from the server's cache) or with " +
      `${whole(f.models.credentials)} in turn, more than either cache holds (10,000, the oldest dropped first), so ` +
      'every request is checked in full: for tokens, copies of one the built-in provider issued, each with its own ' +
      "`jti`, signed with the provider's key; for API keys, rows like one the API made, stored as it stores them " +
      '(apps/server/bench/fresh-credentials.ts).',
    '',
    ...table,
    '',
    '### Issue 28 targets',
    '',
    ...targets,
    '',
    '### Where the time goes',
    '',
    'Cadre restarted under `node --cpu-prof`, then the list, the chat turn and the models list with a token not ' +
      'cached on every request, at c=10 for 10 s each; self time per ' +
      "function over each window (native work is charged to its JS caller: better-sqlite3 shows as kysely's " +
      '`executeQuery`).',
    '',
    ...profileTable('List call', f.profiles.list),
    ...profileTable('Chat turn', f.profiles.chat),
    ...profileTable('Models list, a token not cached on every request', f.profiles.freshToken),
    '',
  ].join('\n');
  writeBenchSection('## Side by side (`npm run bench`)', section);
  console.log(`Written to ${BENCHMARKS_FILE}`);
}
