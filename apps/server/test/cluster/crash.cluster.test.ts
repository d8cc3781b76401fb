import { beforeAll, expect, it } from 'vitest';
import { RUN_STALE_AFTER_MS } from '../../src/modules/chat/run-registry.ts';
import { chatFrameHeaders, redeemCode, signUp } from './http-browser.ts';
import { sharedCluster, type SharedCluster } from './shared-cluster.ts';
import { webAppClient } from './web-app-client.ts';

/**
 * R3 on the cluster: kill -9 of one instance, ten times, while clients write through the proxy
 * and chat. The writers are the web app's own code: each create is one press of Save on the agent
 * form, sent by the web app's client with the headers and body it sends (its Idempotency-Key
 * included), and not retried by the client (the web app does not); only HAProxy resends it.
 * Afterwards: no acknowledged write is missing, no create exists twice, and no answer is left
 * `streaming`. The counts are printed for docs/benchmarks.md.
 */
const ROUNDS = 10;
let cluster: SharedCluster;
let token: string;
let agentId: number;

beforeAll(async () => {
  cluster = await sharedCluster();
  const { code, verifier } = await signUp(cluster.url, {
    email: 'crash@example.com',
    accessCode: cluster.accessCode,
  });
  token = (await redeemCode(cluster.url, code, verifier)).body.access_token!;
  const created = await api('/agents/', { name: 'Chatter', description: 'Talks', tool_ids: [] });
  agentId = ((await created.json()) as { id: number }).id;
}, 120_000);

function api(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${cluster.url}/backend/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

it('loses no acknowledged write, duplicates nothing and leaves no answer streaming through ten kill -9', async () => {
  const acknowledged = new Set<string>();
  let saves = 0;
  let failed = 0;
  let running = true;
  const web = await webAppClient(cluster.url, token);

  // Writers: the agent form's Save, once per agent; a failed one is counted, not sent again.
  const writer = async (w: number) => {
    for (let n = 0; running; n += 1) {
      const name = `crash-${w}-${n}`;
      saves += 1;
      try {
        await web.saveNewAgent(name, 'written under fire');
        acknowledged.add(name);
      } catch {
        // The person sees the failure (an instance died and HAProxy could not pass the Save on).
        failed += 1;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };

  // Chatters: turns of a few seconds, so kills land mid-answer.
  const chatter = async () => {
    const headers = await chatFrameHeaders(cluster.url, token, agentId);
    while (running) {
      try {
        const res = await fetch(`${cluster.url}/chainlit/chat`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ text: 'slow 60 40' }),
        });
        await res.arrayBuffer();
      } catch {
        // Cut by a kill: the answer so far must survive in the database.
      }
    }
  };

  const load = [...Array.from({ length: 4 }, (_, w) => writer(w)), chatter(), chatter()];
  let slowestRestart = 0;
  let restarting = Promise.resolve();
  for (let round = 0; round < ROUNDS; round += 1) {
    // A kill every 1.5-3 s, once the instance killed before is back: its restart runs meanwhile.
    await Promise.all([
      new Promise((resolve) => setTimeout(resolve, 1_500 + Math.random() * 1_500)),
      restarting,
    ]);
    const index = round % cluster.instances.length;
    const victim = cluster.instances[index]!;
    victim.signal('SIGKILL');
    await victim.exited;
    const restarted = Date.now();
    restarting = (async () => {
      // Generous: under this test's own load on a shared 2-core machine a restart took 10-25 s.
      await cluster.waitReady(await cluster.startInstance(index), 90_000);
      slowestRestart = Math.max(slowestRestart, Date.now() - restarted);
    })();
  }
  await restarting;
  running = false;
  await Promise.all(load);

  const rows = await cluster.query<{ name: string; n: number }>(
    `select name, count(*)::int as n from agents
      where name like 'crash-%' and user_id = (select user_id from agents where id = $1) group by name`,
    [agentId],
  );
  const stored = new Map(rows.map((r) => [r.name, r.n]));
  const lost = [...acknowledged].filter((name) => !stored.has(name));
  const duplicates = rows.filter((r) => r.n > 1).map((r) => r.name);

  // Answers cut by a kill end as interrupted once their heartbeat is stale and an instance sweeps.
  let streaming = -1;
  const deadline = Date.now() + RUN_STALE_AFTER_MS * 3;
  while (Date.now() < deadline) {
    const [row] = await cluster.query<{ n: number }>(
      `select count(*)::int as n from messages join threads on threads.id = messages.thread_id
        where threads.agent_id = $1 and messages.status = 'streaming'`,
      [agentId],
    );
    streaming = row!.n;
    if (streaming === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  const [interrupted] = await cluster.query<{ n: number; withText: number }>(
    `select count(*)::int as n, count(*) filter (where parts like '%tok%')::int as "withText"
       from messages join threads on threads.id = messages.thread_id
      where threads.agent_id = $1 and messages.status = 'interrupted'`,
    [agentId],
  );
  const rowCount = rows.reduce((sum, r) => sum + r.n, 0);
  console.log(
    `crash test: ${ROUNDS} kill -9 rounds; ${saves} web app Saves (${failed} failed), ` +
      `${acknowledged.size} acknowledged, ${rowCount} rows, ${lost.length} lost, ` +
      `${duplicates.length} duplicated; ` +
      `${interrupted!.n} answers interrupted by kills (${interrupted!.withText} kept their streamed text), ` +
      `${streaming} left streaming; slowest restart to ready ${slowestRestart} ms`,
  );
  expect(lost).toEqual([]);
  expect(duplicates).toEqual([]);
  expect(streaming).toBe(0);
  expect(acknowledged.size).toBeGreaterThan(50);
}, 600_000);
