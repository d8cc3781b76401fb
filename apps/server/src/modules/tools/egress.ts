import dns from 'node:dns/promises';
import net from 'node:net';
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import { checkAddress, checkUrl, EgressError, stripBrackets, type EgressPolicy } from './egress-rules.ts';
import { capStream } from './stream-cap.ts';

export {
  checkUrl,
  EgressError,
  hostPolicy,
  type EgressErrorCode,
  type EgressPolicy,
} from './egress-rules.ts';

/**
 * The egress guard: the ONE way a tool reaches the network (DESIGN.md section 4, tests C1–C4).
 * Its rules (policy, URL and address checks) are in `egress-rules.ts`; this file opens the sockets.
 *
 * - Only http(s), no credentials in the URL, only allowed ports (80/443 unless the host is
 *   allowed by EGRESS_ALLOW_PRIVATE), only the hosts the policy lists (a tool for provider X
 *   reaches only X's hosts).
 * - The host is resolved inside the connector, every address is checked, and the socket connects
 *   to exactly the address that was checked, so DNS rebinding has no window.
 * - Redirects are followed by hand, each hop checked again (at most 5); timeouts and a size cap
 *   bound every call.
 * Error messages name the host only: a query string may carry an API key.
 */

export interface SafeResponse {
  status: number;
  ok: boolean;
  headers: Record<string, string>;
  /** The final URL after redirects. */
  url: string;
  body: Buffer;
  text(): string;
  json<T = unknown>(): T;
}

export interface SafeRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_REDIRECTS = 5;

const defaultResolve = async (host: string) =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Resolves a host and returns the one address to connect to, refusing when any address it
 * resolves to is not public (unless allowed by configuration).
 */
export async function resolveChecked(hostname: string, policy: EgressPolicy): Promise<string> {
  const host = stripBrackets(hostname.toLowerCase());
  const check = (address: string) => checkAddress(host, address, policy);
  if (net.isIP(host)) {
    check(host);
    return host;
  }
  let addresses: string[];
  try {
    addresses = await (policy.resolve ?? defaultResolve)(host);
  } catch {
    throw new EgressError('network', `The host ${host} could not be resolved`);
  }
  if (addresses.length === 0) throw new EgressError('network', `The host ${host} could not be resolved`);
  addresses.forEach(check);
  return addresses[0]!;
}

/** undici, loaded with the first guarded request rather than at every start. */
let undici: Promise<typeof Undici> | undefined;
const loadUndici = () => (undici ??= import('undici'));

/** An undici dispatcher whose every connection goes to an address checked by `resolveChecked`. */
async function createGuardedDispatcher(policy: EgressPolicy): Promise<Dispatcher> {
  const { Agent, buildConnector } = await loadUndici();
  const base = buildConnector({ timeout: policy.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS });
  return new Agent({
    headersTimeout: policy.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    connect: (options, callback) => {
      resolveChecked(options.hostname, policy).then(
        (address) => base({ ...options, hostname: address }, callback),
        (err: Error) => callback(err, null),
      );
    },
  });
}

const SENSITIVE_HEADERS = ['authorization', 'cookie', 'proxy-authorization', 'x-api-key'];

function unwrapError(err: unknown, url: URL, timedOut: boolean): EgressError {
  if (err instanceof EgressError) return err;
  const cause = (err as { cause?: unknown })?.cause;
  if (cause instanceof EgressError) return cause;
  if (timedOut) return new EgressError('timeout', `${url.hostname} did not answer in time`);
  const name = (err as Error)?.name;
  if (name === 'AbortError' || name === 'TimeoutError') {
    return new EgressError('timeout', `The request to ${url.hostname} was cancelled or timed out`);
  }
  return new EgressError('network', `${url.hostname} could not be reached`);
}

interface HopResult {
  response: Response;
  url: URL;
}

async function fetchFollowing(
  input: string | URL,
  init: RequestInit,
  policy: EgressPolicy,
  dispatcher: Dispatcher,
  isTimedOut: () => boolean,
): Promise<HopResult> {
  let url = checkUrl(input, policy);
  let method = (init.method ?? 'GET').toUpperCase();
  let body = init.body;
  const headers = new Headers(init.headers);
  const maxRedirects = policy.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const { fetch: undiciFetch } = await loadUndici();
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = (await undiciFetch(url, {
        ...(init as object),
        method,
        headers: Object.fromEntries(headers.entries()),
        body: body as never,
        redirect: 'manual',
        dispatcher,
      })) as unknown as Response;
    } catch (err) {
      throw unwrapError(err, url, isTimedOut());
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || response.status === 304 || !location) {
      return { response, url };
    }
    await response.body?.cancel().catch(() => {});
    if (hop >= maxRedirects) {
      throw new EgressError('too_many_redirects', `Too many redirects from ${url.hostname}`);
    }
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new EgressError('blocked', `${url.hostname} redirected to an invalid URL`);
    }
    next = checkUrl(next, policy);
    if (next.origin !== url.origin) SENSITIVE_HEADERS.forEach((h) => headers.delete(h));
    if (
      response.status === 303 ||
      ((response.status === 301 || response.status === 302) && method === 'POST')
    ) {
      method = method === 'HEAD' ? 'HEAD' : 'GET';
      body = undefined;
      headers.delete('content-type');
      headers.delete('content-length');
    }
    url = next;
  }
}

async function readCapped(response: Response, maxBytes: number, host: string): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new EgressError('too_large', `The answer from ${host} is larger than ${maxBytes} bytes`);
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new EgressError('too_large', `The answer from ${host} is larger than ${maxBytes} bytes`);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

/** One guarded request, body read in full (up to the cap). */
export async function safeFetch(
  input: string | URL,
  init: SafeRequestInit = {},
  policy: EgressPolicy = {},
): Promise<SafeResponse> {
  const timeoutMs = policy.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  const dispatcher = await createGuardedDispatcher(policy);
  const initial = (() => {
    try {
      return new URL(String(input));
    } catch {
      return undefined;
    }
  })();
  try {
    const { response, url } = await fetchFollowing(
      input,
      { method: init.method, headers: init.headers, body: init.body, signal },
      policy,
      dispatcher,
      () => timeout.aborted,
    );
    let bytes: Buffer;
    try {
      bytes = await readCapped(response, policy.maxBytes ?? DEFAULT_MAX_BYTES, url.hostname);
    } catch (err) {
      throw unwrapError(err, url, timeout.aborted);
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    return {
      status: response.status,
      ok: response.status >= 200 && response.status < 300,
      headers,
      url: url.toString(),
      body: bytes,
      text: () => bytes.toString('utf8'),
      json: <T>() => {
        try {
          return JSON.parse(bytes.toString('utf8')) as T;
        } catch {
          throw new EgressError('network', `${url.hostname} did not answer with JSON`);
        }
      },
    };
  } catch (err) {
    throw err instanceof EgressError
      ? err
      : unwrapError(err, initial ?? new URL('http://invalid'), timeout.aborted);
  } finally {
    void dispatcher.destroy().catch(() => {});
  }
}

/**
 * A `fetch` for SDKs (the MCP client) that goes through the same checks. Responses stream (MCP
 * uses server-sent events); with `policy.maxBytes` each response body is cut off past that many
 * bytes and `onTooLarge` hears it (the SDK's own error would not say why). The SDK's request
 * timeouts apply.
 */
export function createGuardedFetch(
  policy: EgressPolicy,
  hooks: { onTooLarge?: (err: EgressError) => void } = {},
): typeof fetch & { close(): Promise<void> } {
  let dispatcher: Promise<Dispatcher> | undefined;
  const onTooLarge = hooks.onTooLarge ?? (() => {});
  const guarded = async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = input instanceof Request ? input.url : input;
    const merged: RequestInit =
      input instanceof Request
        ? { method: input.method, headers: input.headers, body: input.body, signal: input.signal, ...init }
        : init;
    if (merged.body && typeof merged.body !== 'string') (merged as { duplex?: string }).duplex = 'half';
    dispatcher ??= createGuardedDispatcher(policy);
    const { response, url: final } = await fetchFollowing(url, merged, policy, await dispatcher, () => false);
    const { maxBytes } = policy;
    if (maxBytes === undefined || response.status === 204 || response.status === 304) return response;
    return capStream(response, maxBytes, () => {
      const err = new EgressError(
        'too_large',
        `The answer from ${final.hostname} is larger than ${maxBytes} bytes`,
      );
      onTooLarge(err);
      return err;
    });
  };
  return Object.assign(guarded as typeof fetch, {
    close: async () => {
      if (dispatcher) await (await dispatcher).close();
    },
  });
}
