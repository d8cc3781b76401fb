import { mostTellingOutage, outageOf, outageRetryDelayMs, type Outage } from '@cadre/contract';
import { useSyncExternalStore } from 'react';

/**
 * Reads the frame makes (its GETs: the session, thread lists, messages) that meet an outage (503
 * `db_unavailable`, or Cadre unreachable behind its proxy) wait and try again until they work,
 * as the answer's Retry-After asks and longer with each failure; meanwhile the frame says so in one
 * calm line (`useOutage`) instead of failing. A turn or any other write is not repeated: it fails
 * where it was made, with Retry.
 */
const waiting = new Map<number, Outage>();
const listeners = new Set<() => void>();
let nextId = 0;

function set(id: number, outage: Outage | undefined) {
  if (outage) waiting.set(id, outage);
  else waiting.delete(id);
  for (const listener of listeners) listener();
}

/** What the frame waits out now, if anything (mostTellingOutage picks one). */
const current = () => mostTellingOutage(waiting.values());

export function useOutage(): Outage | undefined {
  return useSyncExternalStore((onChange) => {
    listeners.add(onChange);
    return () => void listeners.delete(onChange);
  }, current);
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/** `fetch` that waits out outages for GETs, as described above. */
export function retryingOutages(fetchImpl: typeof fetch): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    if (request.method !== 'GET') return fetchImpl(request);
    const id = (nextId += 1);
    try {
      for (let failures = 1; ; failures += 1) {
        const response = await fetchImpl(request.clone());
        if (response.status !== 503) return response;
        const body: unknown = await response
          .clone()
          .json()
          .catch(() => undefined);
        const outage = outageOf(response.status, body);
        if (!outage) return response;
        set(id, outage);
        await pause(outageRetryDelayMs(failures, response.headers.get('retry-after')), request.signal);
      }
    } finally {
      if (waiting.has(id)) set(id, undefined);
    }
  };
}
