/**
 * `npm run bench`: Cadre side by side with its references, in one run on one machine, so the
 * ratios hold even when the machine's load moves the absolute figures (docs/benchmarks.md).
 *
 * Started here, each in its own process: the fake OpenAI-compatible model (50 tokens, no delay),
 * the built Cadre (`apps/server/dist/main.js`, SQLite, default settings but the model and
 * CHAT_TURNS_PER_MINUTE), and a bare Fastify server answering a fixed body the size of Cadre's
 * list response (the list's ceiling). This process is the load generator. The cheapest signed-in
 * call is also measured with one credential and with a new one each request (fresh-credentials.ts),
 * for what checking one costs when the server's cache cannot answer. Then Cadre again under
 * `--cpu-prof` for the top frames of a list call, a chat turn and that call with fresh tokens. The
 * long-thread row (long-thread.ts) times turns in a 10,000- and a 600-message thread.
 *
 * BENCH_SECONDS (15) per measured run, BENCH_TTFT_SAMPLES (200) first-token pairs, BENCH_STARTS
 * (5) cold starts, BENCH_IDLE_SECONDS (10) before the idle RSS is read.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { percentile } from '../../../scripts/bench-report.ts';
import { FRESH_CREDENTIALS, freshApiKeys, freshTokens, inTurn } from './fresh-credentials.ts';
import { firstTokenPairs, getLoad, streamLoad, type StreamTarget } from './load.ts';
import { compressionChecks, measureRevalidation } from './list-targets.ts';
import { longThreadTurns, seedLongThreads } from './long-thread.ts';
import {
  cpuMs,
  MODEL_STREAM_ENDS,
  rssMiB,
  startCadre,
  startFakeModel,
  startHelper,
  type Cadre,
} from './processes.ts';
import { monotonicMicros, summarizeProfile } from './profile.ts';
import { writeReport, type Figures } from './report.ts';
import { seedChatters, seedListOwner } from './seed.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const TTFT_SAMPLES = Number(process.env.BENCH_TTFT_SAMPLES ?? 200);
const STARTS = Number(process.env.BENCH_STARTS ?? 5);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
const PROFILE_SECONDS = 10;
const WARM_UP_SECONDS = 3;
/** People chatting: CHAT_TURNS_PER_MINUTE (at most 10,000) counts per person. */
const CHATTERS = 4;

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
const median = (values: number[]) => percentile(values, 50);

/** `measure` on a server run under `--cpu-prof`: its window on the profile's clock and its CPU. */
async function profiledWindow(pid: number, measure: () => Promise<{ rps: number }>) {
  const start = monotonicMicros();
  const cpuBefore = cpuMs(pid);
  const { rps } = await measure();
  const end = monotonicMicros();
  return { start, end, rps, cpuMsPer: (cpuMs(pid) - cpuBefore) / (rps * PROFILE_SECONDS) };
}
type ProfiledWindow = Awaited<ReturnType<typeof profiledWindow>>;

async function main() {
  const loadAtStart = os.loadavg();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-bench-'));
  const dataDir = path.join(work, 'cadre');
  const stops: (() => Promise<void>)[] = [];
  try {
    const { model, env } = await startFakeModel();
    stops.push(model.stop);

    console.log('cold starts…');
    let cadre: Cadre = await startCadre(dataDir, env);
    const freshStart = { ms: cadre.readyMs, cpuMs: cadre.readyCpuMs };
    const starts: { ms: number; cpuMs: number }[] = [];
    for (let i = 0; i < STARTS; i++) {
      await cadre.stop();
      cadre = await startCadre(dataDir, env, { port: cadre.port });
      starts.push({ ms: cadre.readyMs, cpuMs: cadre.readyCpuMs });
    }
    stops.push(() => cadre.stop());
    await sleep(IDLE_SECONDS);
    const idleRssMiB = rssMiB(cadre.pid);

    console.log('seeding…');
    const owner = await seedListOwner(cadre.url);
    const chat = await seedChatters(cadre.url, CHATTERS);
    const listUrl = `${cadre.url}/backend/api/v1/agents/`;
    const listBody = await (
      await fetch(listUrl, { headers: { authorization: `Bearer ${owner.token}` } })
    ).text();
    const bodyFile = path.join(work, 'list.json');
    fs.writeFileSync(bodyFile, listBody);
    const ceiling = await startHelper('./ceiling.ts', [bodyFile]);
    stops.push(ceiling.stop);

    const bearer = { authorization: `Bearer ${await owner.refresh()}` };
    const keyHeader = { authorization: `Bearer ${owner.apiKey}` };
    console.log('list…');
    await getLoad(listUrl, bearer, 10, WARM_UP_SECONDS);
    await getLoad(ceiling.info.address!, {}, 10, WARM_UP_SECONDS);
    const list = await getLoad(listUrl, bearer, 10, SECONDS, cadre.pid);
    const ceilingRun = await getLoad(ceiling.info.address!, {}, 10, SECONDS, ceiling.process.pid);
    const listWithKey = await getLoad(listUrl, keyHeader, 10, SECONDS, cadre.pid);
    console.log('list revalidation (304) and compression…');
    const { revalidation, ceilingRevalidation } = await measureRevalidation(
      { listUrl, headers: bearer, pid: cadre.pid },
      { url: ceiling.info.address!, pid: ceiling.process.pid! },
      SECONDS,
      WARM_UP_SECONDS,
    );
    const compression = await compressionChecks(listUrl, `${cadre.url}/backend/api/v1/models`, bearer);

    console.log('credential checks…');
    const modelsUrl = `${cadre.url}/backend/api/v1/models`;
    const signInTokens = await freshTokens(dataDir, owner.token, FRESH_CREDENTIALS);
    // One turn through the tokens for the warm-up and the run: a token the warm-up used is back
    // only after all the others, when the cache no longer holds it.
    const tokenTurns = inTurn(signInTokens);
    await getLoad(modelsUrl, tokenTurns, 10, WARM_UP_SECONDS);
    // Headers from a function in every models run, so the load generator's work is the same.
    const modelsToken = await getLoad(modelsUrl, () => bearer, 10, SECONDS, cadre.pid);
    const modelsFreshToken = await getLoad(modelsUrl, tokenTurns, 10, SECONDS, cadre.pid);
    const modelsKey = await getLoad(modelsUrl, () => keyHeader, 10, SECONDS, cadre.pid);
    const apiKeys = await freshApiKeys(dataDir, owner.apiKey, FRESH_CREDENTIALS);
    const modelsFreshKey = await getLoad(modelsUrl, inTurn(apiKeys), 10, SECONDS, cadre.pid);

    const question = JSON.stringify({ text: 'hello' });
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
    const chatTurn: StreamTarget = {
      url: `${cadre.url}/chainlit/chat`,
      // As the chat frame sends a message: its session, and a key per message (docs/api.md).
      headers: (connection) => ({
        ...chat.sessions[connection % chat.sessions.length]!,
        'idempotency-key': `message-${crypto.randomUUID()}`,
      }),
      body: question,
      ...tokens,
    };
    const openAiApi: StreamTarget = {
      url: `${cadre.url}/backend/openai/v1/chat/completions`,
      headers: () => ({ authorization: `Bearer ${chat.apiKey}` }),
      body: JSON.stringify({
        model: String(chat.agentId),
        stream: true,
        messages: [{ role: 'user', content: 'hello' }],
      }),
      ...tokens,
    };
    console.log('time to first token…');
    const ttft = await firstTokenPairs(direct, chatTurn, TTFT_SAMPLES, 20);
    const ttftOpenAi = await firstTokenPairs(direct, openAiApi, TTFT_SAMPLES, 20);
    console.log('chat turns…');
    await streamLoad(chatTurn, 10, WARM_UP_SECONDS);
    const modelAlone = await streamLoad(direct, 10, SECONDS);
    const chat10 = await streamLoad(chatTurn, 10, SECONDS, cadre.pid);
    const chat50 = await streamLoad(chatTurn, 50, SECONDS, cadre.pid);
    console.log('long thread…');
    const threads = await seedLongThreads(dataDir, 'chat0@bench.example', chat.agentId);
    const inThread = (threadId: string) => ({
      ...chatTurn,
      body: JSON.stringify({ text: 'hello', threadId }),
    });
    const longThread = await longThreadTurns(inThread, threads, cadre.pid);
    await cadre.stop();

    console.log('profiles…');
    const profileDir = path.join(work, 'profile');
    const profiled = await startCadre(dataDir, env, {
      port: cadre.port,
      nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
    });
    stops.push(() => profiled.stop());
    const renewed = { authorization: `Bearer ${await owner.refresh()}` };
    await getLoad(listUrl, renewed, 10, WARM_UP_SECONDS);
    const listWindow = await profiledWindow(profiled.pid, () =>
      getLoad(listUrl, renewed, 10, PROFILE_SECONDS),
    );
    await streamLoad(chatTurn, 10, WARM_UP_SECONDS);
    const chatWindow = await profiledWindow(profiled.pid, () => streamLoad(chatTurn, 10, PROFILE_SECONDS));
    const profileTokenTurns = inTurn(signInTokens);
    await getLoad(modelsUrl, profileTokenTurns, 10, WARM_UP_SECONDS);
    const freshTokenWindow = await profiledWindow(profiled.pid, () =>
      getLoad(modelsUrl, profileTokenTurns, 10, PROFILE_SECONDS),
    );
    await profiled.stop();
    const profileFile = path.join(
      profileDir,
      fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'))!,
    );
    const profileOf = ({ start, end, ...measured }: ProfiledWindow) => ({
      ...summarizeProfile(profileFile, start, end),
      ...measured,
    });

    const figures: Figures = {
      seconds: SECONDS,
      listBytes: Buffer.byteLength(listBody),
      list,
      ceiling: ceilingRun,
      listWithKey,
      listTargets: { list, ceiling: ceilingRun, revalidation, ceilingRevalidation, compression },
      models: {
        token: modelsToken,
        freshToken: modelsFreshToken,
        key: modelsKey,
        freshKey: modelsFreshKey,
        credentials: FRESH_CREDENTIALS,
      },
      ttft,
      ttftOpenAi,
      modelAlone,
      chat10,
      chat50,
      longThread,
      coldStart: {
        ...freshStart,
        medianMs: median(starts.map((s) => s.ms)),
        medianCpuMs: median(starts.map((s) => s.cpuMs)),
        count: STARTS,
      },
      idleRssMiB,
      idleSeconds: IDLE_SECONDS,
      profiles: {
        list: profileOf(listWindow),
        chat: profileOf(chatWindow),
        freshToken: profileOf(freshTokenWindow),
      },
      loadAtStart,
      loadAtEnd: os.loadavg(),
    };
    writeReport(figures);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
