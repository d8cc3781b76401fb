/**
 * `npm run bench:knowledge`: knowledge files indexed and searched, on SQLite and on PostgreSQL.
 * Uploads a 200-page PDF to one agent and 1,000 Markdown files to another through
 * `POST /backend/api/v1/agents/{id}/files` (in process, one at a time, as an editor would), then
 * runs 300 searches per agent as the "Search knowledge" tool does, and writes the time to index,
 * passages per second, search p50/p95 and the database's size to docs/benchmarks.md ("Knowledge
 * files"). The texts are generated from a seeded word list, so every run indexes the same words.
 *
 * BENCH_ONLY=sqlite skips PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { buildApp } from '../src/app.ts';
import type { Db } from '../src/db/database.ts';
import { createKnowledgeService } from '../src/modules/knowledge/index.ts';
import { percentile, writeBenchSection } from '../../../scripts/bench-report.ts';
import { multipartBody } from '../test/support/knowledge-files.ts';
import { startPostgresCluster } from '../test/support/postgres-cluster.ts';
import { bearer, startTestIssuer, type TestIssuer } from '../test/support/test-issuer.ts';
import { BENCH_SUBJECT, openBenchDatabase, seedBenchAgent, seedBenchUser } from './seed-rows.ts';

const PDF_PAGES = 200;
const MARKDOWN_FILES = 1_000;
const SEARCHES = 300;

/** A deterministic stream of numbers in [0, 1) (mulberry32), so runs index the same text. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'account agreement annual approval asset audit balance benefit budget calendar claim client contract cost ' +
  'customer deadline delivery deposit employee equipment expense feedback finance holiday insurance invoice ' +
  'laptop leave license maintenance meeting office onboarding order overtime parking payment payroll pension ' +
  'policy privacy procurement project purchase quarter receipt refund renewal report request return review ' +
  'salary schedule security shipping software supplier support target tax training travel vacation vendor ' +
  'warehouse warranty workflow'
).split(' ');
const FILLER = 'the a of to and in for is on with that by are from as be at this which must will each'.split(
  ' ',
);

function sentence(random: () => number): string {
  const words = Array.from({ length: 10 + Math.floor(random() * 8) }, (_, i) =>
    i % 3 === 1 ? FILLER[Math.floor(random() * FILLER.length)]! : WORDS[Math.floor(random() * WORDS.length)]!,
  );
  const text = words.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

async function pdfOfPages(random: () => number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < PDF_PAGES; p++) {
    const page = pdf.addPage([595, 842]);
    for (let line = 0; line < 40; line++)
      page.drawText(sentence(random), { x: 40, y: 800 - line * 19, size: 9, font });
  }
  return pdf.save();
}

function markdown(random: () => number, n: number): string {
  const sections = Array.from({ length: 3 }, (_, s) => {
    const paragraphs = Array.from({ length: 2 }, () =>
      Array.from({ length: 4 }, () => sentence(random)).join(' '),
    );
    return `## Section ${s + 1}\n\n${paragraphs.join('\n\n')}`;
  });
  return `# Note ${n}\n\n${sections.join('\n\n')}\n`;
}

interface Figures {
  database: string;
  corpus: string;
  files: number;
  passages: number;
  indexSeconds: number;
  passagesPerSecond: number;
  searchP50: number;
  searchP95: number;
}

async function databaseBytes(db: Db, dataDir: string): Promise<number> {
  if (db.dialect === 'postgres') {
    const { rows } = await sql<{ size: number }>`select pg_database_size(current_database()) as size`.execute(
      db.kysely,
    );
    return Number(rows[0]!.size);
  }
  await db.checkpoint();
  return fs.statSync(path.join(dataDir, 'cadre.sqlite')).size;
}

async function benchDatabase(kind: 'sqlite' | 'postgres', issuer: TestIssuer, databaseUrl?: string) {
  const { dataDir, config, db } = await openBenchDatabase('knowledge', {
    KNOWLEDGE_MAX_FILES_PER_AGENT: String(MARKDOWN_FILES),
    ...issuer.env,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, SECRETS_KEY: 'ab'.repeat(32) } : {}),
  });
  const userId = await seedBenchUser(db, issuer.url);
  const agent = (name: string) =>
    seedBenchAgent(db, userId, { name, description: 'Answers from files', guidelines: 'Cite.' });
  const pdfAgent = await agent('Manual reader');
  const notesAgent = await agent('Notes reader');
  const app = await buildApp({ config, db, webDistDir: path.join(dataDir, 'no-web') });
  const auth = bearer(await issuer.token({ sub: BENCH_SUBJECT }, { expiresIn: 3600 }));
  const before = await databaseBytes(db, dataDir);
  const random = seeded(20_26);

  const upload = async (agentId: number, name: string, bytes: Uint8Array | string) => {
    const body = await multipartBody([{ field: 'file', name, bytes }]);
    const res = await app.inject({
      method: 'POST',
      url: `/backend/api/v1/agents/${agentId}/files`,
      headers: { ...auth, ...body.headers },
      payload: body.payload,
    });
    if (res.statusCode !== 201) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
    return (res.json() as { passage_count: number }).passage_count;
  };
  const knowledge = createKnowledgeService({
    db,
    audit: { record: async () => {} },
    agents: { exists: async () => true } as never,
    settings: config.knowledge,
    log: console,
  });
  const searchTimes = async (agentId: number) => {
    const times: number[] = [];
    for (let i = 0; i < SEARCHES; i++) {
      const query = `what does the policy say about ${WORDS[Math.floor(random() * WORDS.length)]} and ${WORDS[Math.floor(random() * WORDS.length)]}`;
      const started = performance.now();
      const hits = await knowledge.search(userId, agentId, query);
      times.push(performance.now() - started);
      if (hits.length === 0) throw new Error(`no hit for "${query}"`);
    }
    return times;
  };

  const figures: Figures[] = [];
  const measure = async (
    corpus: string,
    agentId: number,
    files: () => AsyncGenerator<[string, Uint8Array | string]>,
  ) => {
    let count = 0;
    let passages = 0;
    const started = performance.now();
    for await (const [name, bytes] of files()) {
      passages += await upload(agentId, name, bytes);
      count++;
    }
    const seconds = (performance.now() - started) / 1000;
    const times = await searchTimes(agentId);
    figures.push({
      database: kind,
      corpus,
      files: count,
      passages,
      indexSeconds: Number(seconds.toFixed(1)),
      passagesPerSecond: Math.round(passages / seconds),
      searchP50: Number(percentile(times, 50).toFixed(1)),
      searchP95: Number(percentile(times, 95).toFixed(1)),
    });
    console.table(figures.slice(-1));
  };
  try {
    const pdf = await pdfOfPages(random);
    await measure(
      `one ${PDF_PAGES}-page PDF (${(pdf.length / 1024 / 1024).toFixed(1)} MB)`,
      pdfAgent,
      async function* () {
        yield ['manual.pdf', pdf];
      },
    );
    await measure(`${MARKDOWN_FILES} Markdown files`, notesAgent, async function* () {
      for (let n = 1; n <= MARKDOWN_FILES; n++) yield [`note-${n}.md`, markdown(random, n)];
    });
    const grown = (await databaseBytes(db, dataDir)) - before;
    return { figures, grownMb: grown / 1024 / 1024 };
  } finally {
    await app.close();
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const issuer = await startTestIssuer();
  const results: { kind: string; figures: Figures[]; grownMb: number }[] = [];
  try {
    results.push({ kind: 'SQLite', ...(await benchDatabase('sqlite', issuer)) });
    if (process.env.BENCH_ONLY !== 'sqlite') {
      const cluster = await startPostgresCluster();
      try {
        const admin = new pg.Client({ connectionString: cluster.url });
        await admin.connect();
        await admin.query('create database cadre_bench_knowledge');
        await admin.end();
        const url = cluster.url.replace(/\/postgres$/, '/cadre_bench_knowledge');
        results.push({ kind: 'PostgreSQL', ...(await benchDatabase('postgres', issuer, url)) });
      } finally {
        await cluster.stop();
      }
    }
  } finally {
    await issuer.close();
  }
  const rows = results.flatMap(({ kind, figures }) =>
    figures.map(
      (f) =>
        `| ${kind} | ${f.corpus} | ${f.passages.toLocaleString('en')} | ${f.indexSeconds} s | ${f.passagesPerSecond.toLocaleString('en')} | ${f.searchP50} ms | ${f.searchP95} ms |`,
    ),
  );
  const sizes = results.map(({ kind, grownMb }) => `${kind} ${grownMb.toFixed(1)} MB`).join(', ');
  const section = [
    '## Knowledge files',
    '',
    `\`npm run bench:knowledge\` (apps/server/bench/knowledge.ts), ${new Date().toISOString().slice(0, 10)}, ` +
      `on this 2-core machine (load average ${os.loadavg()[0]!.toFixed(1)} at the end). Each file is uploaded ` +
      'through `POST /backend/api/v1/agents/{id}/files` in process, one at a time: the time to index covers ' +
      'the request, sniffing, extraction (the PDF in its worker thread), splitting and the insert with its ' +
      'full-text index, and the version each upload records. Search is the call the "Search knowledge" tool ' +
      `makes (full text only: no embedding model configured), ${SEARCHES} questions of two topic words per agent. ` +
      'The 1,000 Markdown files go to one agent (KNOWLEDGE_MAX_FILES_PER_AGENT=1000).',
    '',
    '| Database | Corpus | Passages | Time to index | Passages/s | Search p50 | Search p95 |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Database growth for both corpora (bytes, passages, indexes, and the version each upload records): ${sizes}. ` +
      'A version does not list its files: which versions hold a file is one row per attachment ' +
      '(knowledge_file_spans), so 1,000 uploads add 1,000 small rows, not a growing list per version.',
    '',
    '',
  ].join('\n');
  writeBenchSection('## Knowledge files', section);
  console.log(section);
}

await main();
