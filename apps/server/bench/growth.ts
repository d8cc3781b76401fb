/**
 * `npm run bench:growth`: how the list calls' cost grows with the data (issue 19, costs flat as data
 * grows), in process on SQLite through `app.inject`: the agent list with 10, 100 and 1,000 agents of
 * 5 tools each, whole and as a page of 20, and a thread's messages with 10, 1,000 and 10,000
 * messages, whole and as the newest page of 50. Rows go straight into the database; each figure is
 * the median of CALLS sequential calls after a warm-up. Writes "## Growth" in docs/benchmarks.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { percentile, writeBenchSection } from '../../../scripts/bench-report.ts';
import { bearer, startTestIssuer } from '../test/support/test-issuer.ts';
import { BENCH_SUBJECT, openBenchDatabase, seedBenchAgent, seedBenchUser } from './seed-rows.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 50);
const AGENT_COUNTS = [10, 100, 1_000];
const MESSAGE_COUNTS = [10, 1_000, 10_000];
const TOOLS_EACH = 5;
const BATCH = 500;

interface Row {
  what: string;
  size: number;
  wholeMs: number;
  wholeKb: number;
  pageMs: number;
  pageKb: number;
}

async function main() {
  const issuer = await startTestIssuer();
  const { dataDir, config, db } = await openBenchDatabase('growth', issuer.env);
  const app = await buildApp({ config, db, webDistDir: path.join(dataDir, 'no-web') });
  // Ready syncs the tool catalog: the agents' tools are built-in actions.
  await app.ready();
  const k = db.kysely;
  try {
    const userId = await seedBenchUser(db, issuer.url);
    const auth = bearer(await issuer.token({ sub: BENCH_SUBJECT }, { expiresIn: 3600 }));
    const timed = async (url: string, headers: Record<string, string>) => {
      const get = () => app.inject({ method: 'GET', url, headers });
      const first = await get();
      if (first.statusCode !== 200)
        throw new Error(`${url}: ${first.statusCode} ${first.body.slice(0, 200)}`);
      for (let i = 0; i < 5; i++) await get();
      const times: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        const started = performance.now();
        await get();
        times.push(performance.now() - started);
      }
      return { ms: percentile(times, 50), kb: first.rawPayload.length / 1024 };
    };
    const rows: Row[] = [];
    const measure = async (
      what: string,
      size: number,
      url: string,
      pageUrl: string,
      headers: Record<string, string>,
    ) => {
      const whole = await timed(url, headers);
      const page = await timed(pageUrl, headers);
      rows.push({ what, size, wholeMs: whole.ms, wholeKb: whole.kb, pageMs: page.ms, pageKb: page.kb });
      console.table(rows.slice(-1));
    };

    const actions = (await k.selectFrom('actions').select('id').orderBy('id').limit(50).execute()).map(
      (a) => a.id,
    );
    let agents = 0;
    for (const size of AGENT_COUNTS) {
      for (; agents < size; agents++) {
        const agentId = await seedBenchAgent(db, userId, {
          name: `Agent ${agents}`,
          description: 'An agent that helps with the inbox and the calendar.',
          guidelines: 'Be brief. Ask before sending anything.',
        });
        await k
          .insertInto('agent_tools')
          .values(
            Array.from({ length: TOOLS_EACH }, (_, t) => ({
              agent_id: agentId,
              action_id: actions[(agents * TOOLS_EACH + t) % actions.length]!,
              version: null,
              position: t,
            })),
          )
          .execute();
      }
      await measure(
        'Agents (5 tools each)',
        size,
        '/backend/api/v1/agents/',
        '/backend/api/v1/agents/?limit=20',
        auth,
      );
    }

    const agentId = await seedBenchAgent(db, userId, { name: 'Chat', description: 'Chats.', guidelines: '' });
    const threadId = crypto.randomUUID();
    const start = Date.parse('2026-01-01T00:00:00Z');
    await k
      .insertInto('threads')
      .values({
        id: threadId,
        user_id: userId,
        agent_id: agentId,
        name: 'Long',
        created_at: new Date(start).toISOString(),
        updated_at: new Date(start).toISOString(),
      })
      .execute();
    const session = await app.inject({
      method: 'POST',
      url: '/chainlit/auth/header',
      headers: { ...auth, 'x-agent-id': String(agentId) },
    });
    const cookie = session.cookies.find((c) => c.name === 'cadre_chat_session');
    if (!cookie) throw new Error(`chat sign-in: ${session.statusCode} ${session.body.slice(0, 200)}`);
    let messages = 0;
    for (const size of MESSAGE_COUNTS) {
      while (messages < size) {
        const count = Math.min(BATCH, size - messages);
        await k
          .insertInto('messages')
          .values(
            Array.from({ length: count }, (_, i) => {
              const n = messages + i;
              const text = `${n % 2 ? 'Here is what I found' : 'Could you look into'} item ${n}: ${'lorem ipsum '.repeat(15)}`;
              return {
                id: `m${n}`,
                thread_id: threadId,
                role: n % 2 ? 'assistant' : 'user',
                parts: JSON.stringify([{ type: 'text', text }]),
                status: 'complete',
                created_at: new Date(start + n * 1000).toISOString(),
              };
            }),
          )
          .execute();
        messages += count;
      }
      const url = `/chainlit/threads/${threadId}/messages`;
      await measure('Messages in one thread', size, url, `${url}?limit=50`, {
        cookie: `${cookie.name}=${cookie.value}`,
      });
    }

    const fmt = (n: number, digits = 1) => n.toLocaleString('en', { maximumFractionDigits: digits });
    const section = [
      '## Growth',
      '',
      `\`npm run bench:growth\` (apps/server/bench/growth.ts), ${new Date().toISOString().slice(0, 10)}, ` +
        `${os.cpus().length} CPU cores, Node ${process.version}, load average (1 min) ${os.loadavg()[0]!.toFixed(1)} at the end. ` +
        'In process on SQLite (`app.inject`, no network), rows inserted straight into the database; each time is the ' +
        `median of ${CALLS} sequential calls. Agents: \`GET /backend/api/v1/agents/\` whole and \`?limit=20\`. ` +
        'Messages: `GET /chainlit/threads/{id}/messages` whole and `?limit=50` (the newest 50), about 200 characters each.',
      '',
      '| Data | Rows | Whole list: time, body | Page: time, body |',
      '|---|---:|---:|---:|',
      ...rows.map(
        (r) =>
          `| ${r.what} | ${r.size.toLocaleString('en')} | ${fmt(r.wholeMs, 2)} ms, ${fmt(r.wholeKb)} KB | ${fmt(r.pageMs, 2)} ms, ${fmt(r.pageKb)} KB |`,
      ),
      '',
      'A page costs the same however much data there is (keyset on an index); the whole list grows with it. ' +
        'Without `limit` the calls still answer everything, as the spec describes; the web app and the chat ' +
        'frame do not page yet.',
      '',
      '',
    ].join('\n');
    writeBenchSection('## Growth', section);
    console.log(section);
  } finally {
    await app.close();
    await db.close();
    await issuer.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
