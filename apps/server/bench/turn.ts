/**
 * `npm run bench:turn`: the chat turn alone, for work on its cost (issue 28): the built Cadre
 * against the fake model as `npm run bench` starts them, then
 * - time to first token added over the model alone (sequential pairs, alternating);
 * - server CPU per turn at c=10, and c=50 on default settings (answered, 429s with Retry-After);
 * - the long-thread row (long-thread.ts);
 * - with BENCH_TURN_PROFILE=1, Cadre under `--cpu-prof` for sequential turns: the self time of the
 *   samples between a turn's request and its first token (on the profile's clock), per function and
 *   per package (turn-profile.ts); BENCH_TURN_PROFILE_OUT keeps the profile;
 * - with BENCH_TURN_AB=<main.js>,<main.js>, two builds side by side (compareBuilds).
 * Prints JSON; writes nothing. BENCH_TURN_ONLY (ttft,key,c10,c50,long) picks parts; BENCH_TURN_MAIN
 * runs another build; BENCH_SECONDS (10), BENCH_TTFT_SAMPLES (200), BENCH_TURNS (300).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { percentile } from '../../../scripts/bench-report.ts';
import { firstTokenPairs, streamLoad, streamOnce, type StreamTarget } from './load.ts';
import { longThreadTurns, seedLongThreads } from './long-thread.ts';
import { MODEL_STREAM_ENDS, startCadre, startFakeModel } from './processes.ts';
import { monotonicMicros } from './profile.ts';
import { seedChatters } from './seed.ts';
import { beforeFirstToken } from './turn-profile.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TTFT_SAMPLES = Number(process.env.BENCH_TTFT_SAMPLES ?? 200);
const PROFILE_TURNS = Number(process.env.BENCH_TURNS ?? 300);
const PROFILE = process.env.BENCH_TURN_PROFILE === '1';

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-bench-turn-'));
  const dataDir = path.join(work, 'cadre');
  const stops: (() => Promise<void>)[] = [];
  try {
    const { model, env: modelEnv } = await startFakeModel();
    stops.push(model.stop);
    const env = {
      ...modelEnv,
      // Unset: the default, as `npm run bench` measures it; set: to compare limits at c=50.
      ...(process.env.CHAT_MAX_CONCURRENT && { CHAT_MAX_CONCURRENT: process.env.CHAT_MAX_CONCURRENT }),
    };
    const profileDir = path.join(work, 'profile');
    const cadre = await startCadre(dataDir, env, {
      // BENCH_TURN_MAIN: another build's main.js than the tree's.
      main: process.env.BENCH_TURN_MAIN,
      nodeFlags: PROFILE ? ['--cpu-prof', '--cpu-prof-interval=250', `--cpu-prof-dir=${profileDir}`] : [],
    });
    stops.push(() => cadre.stop());
    const chat = await seedChatters(cadre.url, 4);
    const tokens = MODEL_STREAM_ENDS;
    const direct: StreamTarget = {
      url: `${model.info.url}/chat/completions`,
      headers: () => ({}),
      body: JSON.stringify({
        model: 'fake-model',
        stream: true,
        messages: [{ role: 'user', content: 'hello' }],
      }),
      ...tokens,
    };
    const turnIn = (threadId?: string, withKey = true): StreamTarget => ({
      url: `${cadre.url}/chainlit/chat`,
      headers: (connection) => ({
        ...chat.sessions[connection % chat.sessions.length]!,
        ...(withKey && { 'idempotency-key': `message-${crypto.randomUUID()}` }),
      }),
      body: JSON.stringify({ text: 'hello', ...(threadId && { threadId }) }),
      ...tokens,
    });
    const chatTurn = turnIn();

    if (process.env.BENCH_TURN_AB) {
      await compareBuilds(process.env.BENCH_TURN_AB.split(','), work, env, direct);
      return;
    }

    if (PROFILE) {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      for (let i = 0; i < 50; i++) await streamOnce(chatTurn, agent);
      const windows: { from: number; to: number }[] = [];
      for (let i = 0; i < PROFILE_TURNS; i++) {
        const from = monotonicMicros();
        const record = await streamOnce(chatTurn, agent);
        // The client saw the first token after ttftMs; the server's part ends before that.
        windows.push({ from, to: from + record.ttftMs! * 1000 });
      }
      agent.destroy();
      await cadre.stop();
      const file = path.join(
        profileDir,
        fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'))!,
      );
      if (process.env.BENCH_TURN_PROFILE_OUT) fs.copyFileSync(file, process.env.BENCH_TURN_PROFILE_OUT);
      console.log(JSON.stringify(beforeFirstToken(file, windows), null, 1));
      return;
    }

    const only = process.env.BENCH_TURN_ONLY;
    const wanted = (part: string) => only === undefined || only.split(',').includes(part);
    const ttft = wanted('ttft') ? await firstTokenPairs(direct, chatTurn, TTFT_SAMPLES, 20) : undefined;
    // What the message's Idempotency-Key adds to the first token: turns without one, then with one.
    const keyCost = wanted('key')
      ? await firstTokenPairs(turnIn(undefined, false), chatTurn, TTFT_SAMPLES, 20)
      : undefined;
    if (wanted('c10') || wanted('c50')) await streamLoad(chatTurn, 10, 3);
    const chat10 = wanted('c10') ? await streamLoad(chatTurn, 10, SECONDS, cadre.pid) : undefined;
    const chat50 = wanted('c50') ? await streamLoad(chatTurn, 50, SECONDS, cadre.pid) : undefined;
    const threads = wanted('long')
      ? await seedLongThreads(dataDir, 'chat0@bench.example', chat.agentId)
      : undefined;
    const longThread = threads && (await longThreadTurns(turnIn, threads, cadre.pid));
    console.log(
      JSON.stringify(
        {
          load: os.loadavg(),
          ttftAdded: ttft && { p50: percentile(ttft.added, 50), p99: percentile(ttft.added, 99) },
          ttftDirect: ttft && percentile(ttft.direct, 50),
          keyAdded: keyCost && { p50: percentile(keyCost.added, 50), p99: percentile(keyCost.added, 99) },
          chat10,
          chat50,
          longThread: longThread && { ...longThread, ratio: longThread.long.cpuMs / longThread.short.cpuMs },
        },
        null,
        1,
      ),
    );
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * BENCH_TURN_AB=<main.js>,<main.js>: two builds of the server side by side, on the same load, each
 * with its own data and chatters: time to first token in sequential triples (the model alone, one
 * build, the other), then CPU per turn at c=10 in alternating rounds of BENCH_SECONDS.
 */
async function compareBuilds(
  mains: string[],
  work: string,
  env: Record<string, string>,
  direct: StreamTarget,
) {
  const sides = [];
  for (const [i, main] of mains.entries()) {
    const cadre = await startCadre(path.join(work, `ab-${i}`), env, { main });
    const chat = await seedChatters(cadre.url, 4);
    const target: StreamTarget = {
      url: `${cadre.url}/chainlit/chat`,
      headers: (connection) => ({
        ...chat.sessions[connection % chat.sessions.length]!,
        'idempotency-key': `message-${crypto.randomUUID()}`,
      }),
      body: JSON.stringify({ text: 'hello' }),
      firstToken: direct.firstToken,
      lastToken: direct.lastToken,
    };
    sides.push({ main, cadre, target, added: [] as number[], cpu: [] as number[] });
  }
  try {
    const agents = [direct, ...sides].map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
    for (let i = 0; i < TTFT_SAMPLES + 20; i++) {
      const alone = await streamOnce(direct, agents[0]!);
      for (const [s, side] of sides.entries()) {
        const through = await streamOnce(side.target, agents[s + 1]!);
        if (i >= 20) side.added.push(through.ttftMs! - alone.ttftMs!);
      }
    }
    for (const agent of agents) agent.destroy();
    for (const side of sides) await streamLoad(side.target, 10, 3);
    for (let round = 0; round < 3; round++)
      for (const side of sides)
        side.cpu.push((await streamLoad(side.target, 10, SECONDS, side.cadre.pid)).cpuMsPer!);
    console.log(
      JSON.stringify(
        sides.map((side) => ({
          main: side.main,
          ttftAddedP50: percentile(side.added, 50),
          ttftAddedP99: percentile(side.added, 99),
          cpuMsPerTurn: side.cpu,
        })),
        null,
        1,
      ),
    );
  } finally {
    for (const side of sides) await side.cadre.stop();
  }
}

await main();
