/**
 * The long-thread row of the chat benchmarks: a turn in a 10,000-message thread against one in a
 * 600-message thread whose newest messages are the same, so that both send the model the same
 * bytes (its context budget, LLM_CONTEXT_BUDGET, holds about 530 of them). A turn's cost should
 * not grow with what the model is not sent.
 */
import path from 'node:path';
import http from 'node:http';
import { percentile } from '../../../scripts/bench-report.ts';
import { openDatabase } from '../src/db/database.ts';
import { streamOnce, type StreamTarget } from './load.ts';
import { cpuMs } from './processes.ts';

export const LONG_THREAD_MESSAGES = 10_000;
export const SHORT_THREAD_MESSAGES = 600;
const BATCH = 500;

/**
 * Two threads of `email`'s agent `agentId` (the owner's own chat), written straight into the
 * running server's SQLite database (seeding 10,000 messages through turns would take minutes).
 * Message `n` from the newest is the same in both; about 240 B of JSON each, as a short exchange.
 */
export async function seedLongThreads(dataDir: string, email: string, agentId: number) {
  const db = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'cadre.sqlite') });
  try {
    const k = db.kysely;
    const { id: userId } = await k
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const seed = async (count: number) => {
      const threadId = crypto.randomUUID();
      const start = Date.parse('2026-01-01T00:00:00Z');
      const at = new Date(start).toISOString();
      await k
        .insertInto('threads')
        .values({
          id: threadId,
          user_id: userId,
          agent_id: agentId,
          name: `${count} messages`,
          created_at: at,
          updated_at: at,
        })
        .execute();
      for (let done = 0; done < count; done += BATCH) {
        const rows = Array.from({ length: Math.min(BATCH, count - done) }, (_, i) => {
          const n = done + i;
          // Counted from the newest, so both threads end in the same messages; an even count
          // makes the newest an answer, and the turn's own message a user message after it.
          const fromNewest = count - 1 - n;
          const role = fromNewest % 2 ? 'user' : 'assistant';
          const text = `${role === 'user' ? 'Could you look into' : 'Here is what I found about'} item ${fromNewest}: ${'lorem ipsum '.repeat(15)}`;
          return {
            id: crypto.randomUUID(),
            thread_id: threadId,
            role,
            parts: JSON.stringify([{ type: 'text', text }]),
            status: 'complete',
            created_at: new Date(start + n * 1000).toISOString(),
          };
        });
        await k.insertInto('messages').values(rows).execute();
      }
      return threadId;
    };
    return { long: await seed(LONG_THREAD_MESSAGES), short: await seed(SHORT_THREAD_MESSAGES) };
  } finally {
    await db.close();
  }
}

export interface LongThreadRow {
  turns: number;
  long: { cpuMs: number; p50: number };
  short: { cpuMs: number; p50: number };
}

/**
 * `turns` turns in each thread, one at a time, alternating the two (so both meet the same load),
 * each read to its end: server CPU per turn (utime + stime from /proc, summed over each side's
 * turns) and the median turn time.
 */
export async function longThreadTurns(
  target: (threadId: string) => StreamTarget,
  threads: { long: string; short: string },
  pid: number,
  turns = 60,
): Promise<LongThreadRow> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const sides = {
    long: { cpu: 0, times: [] as number[] },
    short: { cpu: 0, times: [] as number[] },
  };
  try {
    for (let i = 0; i < turns + 2; i++) {
      for (const side of ['long', 'short'] as const) {
        const before = cpuMs(pid);
        const record = await streamOnce(target(threads[side]), agent);
        if (record.status !== 200 || record.failed)
          throw new Error(`a ${side}-thread turn failed: ${JSON.stringify(record)}`);
        // The first two of each warm up.
        if (i < 2) continue;
        sides[side].cpu += cpuMs(pid) - before;
        sides[side].times.push(record.ms);
      }
    }
  } finally {
    agent.destroy();
  }
  const figures = (side: (typeof sides)['long']) => ({
    cpuMs: side.cpu / turns,
    p50: percentile(side.times, 50),
  });
  return { turns, long: figures(sides.long), short: figures(sides.short) };
}

/** The row `npm run bench` writes for it in docs/benchmarks.md (report.ts). */
export function longThreadReportRow({ turns, long, short }: LongThreadRow): string[] {
  const ratio = long.cpuMs / short.cpuMs;
  const ms = (n: number) => n.toLocaleString('en', { maximumFractionDigits: 1 });
  return [
    `A turn in a ${LONG_THREAD_MESSAGES.toLocaleString('en')}-message thread (${turns} turns, one at a time): server CPU per turn, p50`,
    `${ms(long.cpuMs)} ms CPU, p50 ${ms(long.p50)} ms`,
    `a ${SHORT_THREAD_MESSAGES}-message thread sending the model the same bytes: ${ms(short.cpuMs)} ms CPU, p50 ${ms(short.p50)} ms`,
    `${ratio.toFixed(2)}×`,
    '≤ 1.2× (issue 28)',
    ratio <= 1.2 ? 'yes' : '**no**',
  ];
}
