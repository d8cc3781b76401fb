import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import {
  createFuzzyMatcher,
  FUZZY_THRESHOLD,
  type FuzzyWorkerAnswer,
  type FuzzyWorkerRequest,
  type MessagePeer,
} from './fuzzy-match';

export { FUZZY_THRESHOLD } from './fuzzy-match';

/**
 * Lists at least this long are searched in a worker. Over 10,000 tools one keystroke costs Fuse tens
 * of milliseconds, which the page's thread would otherwise spend instead of showing what was typed
 * (docs/benchmarks.md, "Web"); a list of a few hundred items is searched in place in about a
 * millisecond, and answers at once.
 */
export const WORKER_MIN_ITEMS = 500;

/**
 * Indexes the items once; each query then returns what Fuse matches on the given keys, best match
 * first, or every item in its own order when the query is blank.
 */
export function createFuzzySearch<T>(
  items: readonly T[],
  keys: readonly (keyof T & string)[],
  threshold = FUZZY_THRESHOLD,
): (query: string) => T[] {
  const match = createFuzzyMatcher(items, keys, threshold);
  return (query) => {
    const pattern = query.trim();
    return pattern ? match(pattern).map((position) => items[position]!) : [...items];
  };
}

/** A search running in a worker; answers arrive through the callback given to searchInWorker. */
export interface WorkerSearch {
  search(query: string): void;
  dispose(): void;
}

type SearchWorker = MessagePeer & { terminate(): void };

const startSearchWorker = (): SearchWorker =>
  new Worker(new URL('./fuzzy-worker.ts', import.meta.url), { type: 'module' });

/**
 * Searches `items` in a worker (lib/fuzzy-worker.ts), which indexes them once as createFuzzySearch
 * does and answers each query with the same matches in the same order. While one query is being
 * searched, only the latest one typed after it waits its turn, so the answers keep up with typing.
 * The keys are property names of the items (only those fields are sent to the worker).
 */
export function searchInWorker<T>(
  items: readonly T[],
  keys: readonly (keyof T & string)[],
  onMatches: (query: string, matches: T[]) => void,
  options: { threshold?: number; startWorker?: () => SearchWorker } = {},
): WorkerSearch {
  const worker = (options.startWorker ?? startSearchWorker)();
  const records = items.map((item) => Object.fromEntries(keys.map((key) => [key, item[key]])));
  const threshold = options.threshold ?? FUZZY_THRESHOLD;
  worker.postMessage({ records, keys: [...keys], threshold } satisfies FuzzyWorkerRequest);
  let searching = false;
  let waiting: string | undefined;
  const send = (query: string) => {
    searching = true;
    waiting = undefined;
    worker.postMessage({ query } satisfies FuzzyWorkerRequest);
  };
  worker.onmessage = ({ data }: MessageEvent<FuzzyWorkerAnswer>) => {
    searching = false;
    onMatches(
      data.query,
      Array.from(data.positions, (position) => items[position]!),
    );
    if (waiting !== undefined) send(waiting);
  };
  return {
    search: (query) => {
      if (searching) waiting = query;
      else send(query);
    },
    dispose: () => worker.terminate(),
  };
}

const NO_ITEMS: readonly never[] = [];

/**
 * The items matching `query`, best match first. A short list is filtered in place, following a
 * deferred copy of the query so the search box keeps up with typing; a long one is searched in a
 * worker, and shows the latest answer until the next arrives.
 */
export function useFuzzyFilter<T>(
  items: readonly T[] | undefined,
  query: string,
  keys: readonly (keyof T & string)[],
  threshold = FUZZY_THRESHOLD,
): T[] {
  const list = items ?? NO_ITEMS;
  const inWorker = list.length >= WORKER_MIN_ITEMS && typeof Worker !== 'undefined';
  // The keys are constants of each screen; joining them keeps the index stable across renders.
  const keyId = keys.join('\n');
  const search = useMemo(
    () =>
      inWorker ? undefined : createFuzzySearch(list, keyId.split('\n') as (keyof T & string)[], threshold),
    [list, inWorker, keyId, threshold],
  );
  const deferredQuery = useDeferredValue(query);
  const inPlace = useMemo(() => search?.(deferredQuery), [search, deferredQuery]);
  const fromWorker = useWorkerMatches(inWorker ? list : undefined, query, keyId, threshold);
  return inPlace ?? fromWorker;
}

function useWorkerMatches<T>(
  items: readonly T[] | undefined,
  query: string,
  keyId: string,
  threshold: number,
): T[] {
  const worker = useRef<WorkerSearch | undefined>(undefined);
  const [answer, setAnswer] = useState<{ items: readonly T[]; matches: T[] }>();
  useEffect(() => {
    if (!items) return;
    const keys = keyId.split('\n') as (keyof T & string)[];
    const search = searchInWorker(items, keys, (_query, matches) => setAnswer({ items, matches }), {
      threshold,
    });
    worker.current = search;
    return () => {
      search.dispose();
      worker.current = undefined;
    };
  }, [items, keyId, threshold]);
  const blank = !query.trim();
  // After the effect above, so that a new list's worker gets the query being shown.
  useEffect(() => {
    if (!blank) worker.current?.search(query);
  }, [items, keyId, threshold, query, blank]);
  const everything = useMemo(() => [...(items ?? NO_ITEMS)], [items]);
  return !blank && answer && answer.items === items ? answer.matches : everything;
}
