/**
 * The load `npm run bench` generates, from its own process: autocannon for plain requests (the list
 * call and its ceiling), and a streaming client for chat turns and the model alone, which times the
 * first token, reads every event to the end and honours a 429's Retry-After as a client would.
 */
import http from 'node:http';
import autocannon from 'autocannon';
import { percentile } from '../../../scripts/bench-report.ts';
import { cpuMs, sampleRss } from './processes.ts';

export interface Measured {
  /** Completed 2xx responses (or whole streamed turns) per second. */
  rps: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx (and 429 where counted apart), connection errors and timeouts. */
  errors: number;
  /** Server CPU (user + system) per 2xx answer, when the server's pid was given. */
  cpuMsPer?: number;
  /** The server's highest RSS during the run, in MiB. */
  peakRssMiB?: number;
}

/** Runs `work` while reading the server's CPU time and sampling its memory. */
async function onServer<T extends { ok: number }>(
  pid: number | undefined,
  work: () => Promise<T>,
): Promise<T & { cpuMsPer?: number; peakRssMiB?: number }> {
  if (pid === undefined) return work();
  const before = cpuMs(pid);
  const peak = sampleRss(pid);
  const result = await work();
  const peakRssMiB = peak();
  return { ...result, cpuMsPer: result.ok ? (cpuMs(pid) - before) / result.ok : undefined, peakRssMiB };
}

/**
 * `connections` keep-alive connections sending GET `url` for `seconds` (autocannon). `headers` as a
 * function is asked for each request's headers (one credential after another).
 */
export async function getLoad(
  url: string,
  headers: Record<string, string> | (() => Record<string, string>),
  connections: number,
  seconds: number,
  serverPid?: number,
): Promise<Measured> {
  const perRequest =
    typeof headers === 'function'
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => ({
                ...request,
                headers: { ...request.headers, ...headers() },
              }),
            },
          ],
        }
      : { headers };
  const run = () =>
    new Promise<autocannon.Result>((resolve, reject) => {
      autocannon({ url, ...perRequest, connections, duration: seconds }, (err, result) =>
        err ? reject(err) : resolve(result),
      );
    });
  const result = await onServer(serverPid, async () => {
    const r = await run();
    return { ...r, ok: r['2xx'] };
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  if (errors > 0) console.warn(`${url}: ${errors} errors (${result.non2xx} answers other than 2xx)`);
  return {
    rps: result.ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors,
    cpuMsPer: result.cpuMsPer,
    peakRssMiB: result.peakRssMiB,
  };
}

export interface StreamTarget {
  url: string;
  /** Headers per connection (the chat spreads its connections over several users' sessions). */
  headers: (connection: number) => Record<string, string>;
  body: string;
  /** Text that only the first token's event carries. */
  firstToken: string;
  /** Text that only the last token's event carries: a turn without it failed. */
  lastToken: string;
}

export interface TurnRecord {
  status: number;
  ms: number;
  ttftMs?: number;
  retryAfter?: string | null;
  failed?: string;
}

/** One streamed request on `agent`, read to its end. */
export function streamOnce(target: StreamTarget, agent: http.Agent, connection = 0): Promise<TurnRecord> {
  return new Promise((resolve) => {
    const started = performance.now();
    const url = new URL(target.url);
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(target.body),
          ...target.headers(connection),
        },
      },
      (response) => {
        let text = '';
        let ttftMs: number | undefined;
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (ttftMs === undefined && chunk.includes(target.firstToken)) ttftMs = performance.now() - started;
          text += chunk;
        });
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          const ok = status === 200 && text.includes(target.lastToken) && !text.includes('"type":"error"');
          resolve({
            status,
            ms: performance.now() - started,
            ttftMs,
            retryAfter: response.headers['retry-after'] ?? null,
            ...(ok || status !== 200 ? {} : { failed: text.slice(-300) }),
          });
        });
      },
    );
    request.on('error', (error) =>
      resolve({ status: 0, ms: performance.now() - started, failed: error.message }),
    );
    request.end(target.body);
  });
}

export interface StreamLoad extends Measured {
  /** 429 answers, and how many of them carried Retry-After. */
  refused: number;
  refusedWithRetryAfter: number;
}

/**
 * `connections` clients, each on its own keep-alive connection, sending turns back to back for
 * `seconds`; a client told 429 waits the Retry-After it was given before its next turn.
 */
export async function streamLoad(
  target: StreamTarget,
  connections: number,
  seconds: number,
  serverPid?: number,
): Promise<StreamLoad> {
  const records: TurnRecord[] = [];
  const work = async () => {
    const end = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async (_, connection) => {
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        while (performance.now() < end) {
          const record = await streamOnce(target, agent, connection);
          records.push(record);
          if (record.status === 429) {
            const wait = Math.min(Number(record.retryAfter ?? 1) * 1000, end - performance.now());
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          }
        }
        agent.destroy();
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    return { ok: records.filter((r) => r.status === 200 && !r.failed).length, elapsed };
  };
  const result = await onServer(serverPid, work);
  const ok = records.filter((r) => r.status === 200 && !r.failed);
  const refused = records.filter((r) => r.status === 429);
  for (const failure of records.filter((r) => r.failed).slice(0, 3)) console.error('failed turn:', failure);
  const times = ok.map((r) => r.ms);
  return {
    rps: result.ok / result.elapsed,
    p50: times.length ? percentile(times, 50) : NaN,
    p99: times.length ? percentile(times, 99) : NaN,
    errors: records.length - ok.length - refused.length,
    refused: refused.length,
    refusedWithRetryAfter: refused.filter((r) => r.retryAfter).length,
    cpuMsPer: result.cpuMsPer,
    peakRssMiB: result.peakRssMiB,
  };
}

export interface FirstTokenPairs {
  /** The reference alone, then the same through Cadre, per pair (ms). */
  direct: number[];
  through: number[];
  added: number[];
}

/**
 * Time to first token, sequentially, alternating the model alone and the same answer through
 * Cadre, one keep-alive connection each: the difference per pair is what Cadre adds.
 */
export async function firstTokenPairs(
  direct: StreamTarget,
  through: StreamTarget,
  samples: number,
  warmUp: number,
): Promise<FirstTokenPairs> {
  const agents = [
    new http.Agent({ keepAlive: true, maxSockets: 1 }),
    new http.Agent({ keepAlive: true, maxSockets: 1 }),
  ];
  const pairs: FirstTokenPairs = { direct: [], through: [], added: [] };
  for (let i = 0; i < warmUp + samples; i++) {
    const d = await streamOnce(direct, agents[0]!);
    const t = await streamOnce(through, agents[1]!);
    if (d.failed || t.failed || d.ttftMs === undefined || t.ttftMs === undefined)
      throw new Error(`a first-token sample failed: ${JSON.stringify({ d, t })}`);
    if (i < warmUp) continue;
    pairs.direct.push(d.ttftMs);
    pairs.through.push(t.ttftMs);
    pairs.added.push(t.ttftMs - d.ttftMs);
  }
  for (const agent of agents) agent.destroy();
  return pairs;
}
