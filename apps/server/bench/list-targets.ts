/**
 * Issue 28's part of `npm run bench` (the list from memory and compression), kept apart from
 * run.ts and report.ts: the revalidation row (a list request with its ETag in If-None-Match, which
 * Cadre answers 304, against the bare server answering 304), the compression checks, and the
 * closing lines saying of each of the issue's targets whether this run met it.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';
import type { Measured } from './load.ts';
import { cpuMs, ROOT } from './processes.ts';

/**
 * `connections` keep-alive connections sending GET `url` with If-None-Match `etag` for `seconds`:
 * 304s per second, their latency, and the server's CPU per 304 when its pid is given. Any other
 * answer (a 200 would mean the ETag did not match) counts as an error.
 */
export async function revalidationLoad(
  url: string,
  headers: Record<string, string>,
  etag: string,
  connections: number,
  seconds: number,
  serverPid?: number,
): Promise<Measured> {
  const before = serverPid === undefined ? 0 : cpuMs(serverPid);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      { url, headers: { ...headers, 'if-none-match': etag }, connections, duration: seconds },
      (err, r) => (err ? reject(err) : resolve(r)),
    );
  });
  const notModified = result.statusCodeStats?.['304']?.count ?? 0;
  const errors = result.errors + result.timeouts + result['2xx'] + result['4xx'] + result['5xx'];
  if (errors > 0) console.warn(`${url} with If-None-Match: ${errors} answers other than 304`);
  return {
    rps: notModified / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors,
    cpuMsPer: serverPid === undefined || !notModified ? undefined : (cpuMs(serverPid) - before) / notModified,
  };
}

/** One GET read as raw bytes: its status, headers and the size on the wire. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; encoding: string | undefined; bytes: number; etag?: string }>(
    (resolve, reject) => {
      http
        .get(url, { headers }, (response) => {
          let bytes = 0;
          response.on('data', (chunk: Buffer) => (bytes += chunk.length));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              encoding: response.headers['content-encoding'],
              bytes,
              etag: response.headers.etag,
            }),
          );
        })
        .on('error', reject);
    },
  );
}

/** The list's current ETag, as a client that keeps the list would send it back. */
export async function listEtag(url: string, headers: Record<string, string>): Promise<string> {
  const { etag } = await rawGet(url, headers);
  if (!etag) throw new Error(`${url} answered without an ETag`);
  return etag;
}

export interface CompressionChecks {
  /** The list asked for with each encoding: what came back and its size on the wire. */
  list: { encoding: string; sentAs: string | undefined; bytes: number }[];
  /** A JSON answer under 1 KB (the models list), asked for with `br, gzip`. */
  small: { sentAs: string | undefined; bytes: number };
  /** Text files of the web app's and the chat frame's builds, and how many have a .br and a .gz. */
  staticFiles: { text: number; precompressed: number };
}

const TEXT_FILE = /\.(?:js|mjs|css|html|svg|json|txt|xml|map|webmanifest)$/;

/** Whether the list and a small answer go out compressed as they should, and the builds' files. */
export async function compressionChecks(
  listUrl: string,
  modelsUrl: string,
  headers: Record<string, string>,
): Promise<CompressionChecks> {
  const list = [];
  for (const encoding of ['identity', 'gzip', 'br']) {
    const answer = await rawGet(listUrl, { ...headers, 'accept-encoding': encoding });
    list.push({ encoding, sentAs: answer.encoding, bytes: answer.bytes });
  }
  const small = await rawGet(modelsUrl, { ...headers, 'accept-encoding': 'br, gzip' });
  let text = 0;
  let precompressed = 0;
  for (const dir of ['apps/web/dist', 'apps/chat/dist']) {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !TEXT_FILE.test(entry.name)) continue;
      const file = path.join(entry.parentPath, entry.name);
      text += 1;
      if (fs.existsSync(`${file}.br`) && fs.existsSync(`${file}.gz`)) precompressed += 1;
    }
  }
  return {
    list,
    small: { sentAs: small.encoding, bytes: small.bytes },
    staticFiles: { text, precompressed },
  };
}

export interface ListTargetFigures {
  list: Measured;
  ceiling: Measured;
  revalidation: Measured;
  ceilingRevalidation: Measured;
  compression: CompressionChecks;
}

const ms = (n: number | undefined) => (n === undefined ? '—' : `${n.toFixed(3)} ms`);
const times = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined ? Number.NaN : a / b;

/** One line per issue-28 target: what was measured and whether it is met. */
export function issue28Lines(f: ListTargetFigures): string[] {
  const listCpu = times(f.list.cpuMsPer, f.ceiling.cpuMsPer);
  const revalidationCpu = times(f.revalidation.cpuMsPer, f.ceilingRevalidation.cpuMsPer);
  const byEncoding = new Map(f.compression.list.map((c) => [c.encoding, c]));
  const plain = byEncoding.get('identity')!;
  const compressed = ['gzip', 'br'].every((e) => byEncoding.get(e)?.sentAs === e) && !plain.sentAs;
  const { staticFiles, small } = f.compression;
  const line = (ok: boolean, text: string) => `- ${ok ? 'met' : '**not met**'}: ${text}`;
  return [
    line(
      listCpu <= 4,
      `list CPU per request ≤ 4× the bare server's sending the same body: ${ms(f.list.cpuMsPer)} vs ${ms(f.ceiling.cpuMsPer)}, ${listCpu.toFixed(2)}× (throughput ${((100 * f.list.rps) / f.ceiling.rps).toFixed(1)} % of the bare server's)`,
    ),
    line(f.list.p99 <= 10, `list p99 ≤ 10 ms at c=10: ${f.list.p99} ms (bare server ${f.ceiling.p99} ms)`),
    line(
      revalidationCpu <= 1.5 && f.revalidation.errors === 0,
      `a 304 to If-None-Match costs ≤ 1.5× the bare server's 304: ${ms(f.revalidation.cpuMsPer)} vs ${ms(f.ceilingRevalidation.cpuMsPer)}, ${revalidationCpu.toFixed(2)}×, ${f.revalidation.errors} answers other than 304 (that it reads no list table is tested by agent-list-cache.int.test.ts)`,
    ),
    line(
      compressed && !small.sentAs,
      `gzip and brotli for JSON ≥ 1 KB: the list (${plain.bytes} B) went out as ${f.compression.list
        .filter((c) => c.sentAs)
        .map((c) => `${c.sentAs} ${c.bytes} B`)
        .join(', ')}; a ${small.bytes} B answer as ${small.sentAs ?? 'it is'}`,
    ),
    line(
      staticFiles.text > 0 && staticFiles.precompressed === staticFiles.text,
      `static assets precompressed at build: ${staticFiles.precompressed} of the ${staticFiles.text} text files of the web app and the chat frame have a .br and a .gz`,
    ),
  ];
}

/**
 * The revalidation rows: Cadre's 304 to the list's own ETag, then the bare server's 304, each
 * after a warm-up, at c=10 for `seconds`.
 */
export async function measureRevalidation(
  cadre: { listUrl: string; headers: Record<string, string>; pid: number },
  ceiling: { url: string; pid: number },
  seconds: number,
  warmUpSeconds: number,
) {
  const etag = await listEtag(cadre.listUrl, cadre.headers);
  await revalidationLoad(cadre.listUrl, cadre.headers, etag, 10, warmUpSeconds);
  await revalidationLoad(ceiling.url, {}, etag, 10, warmUpSeconds);
  const revalidation = await revalidationLoad(cadre.listUrl, cadre.headers, etag, 10, seconds, cadre.pid);
  const ceilingRevalidation = await revalidationLoad(ceiling.url, {}, etag, 10, seconds, ceiling.pid);
  return { revalidation, ceilingRevalidation };
}
