import Fuse from 'fuse.js';

/** The fuzzy-search threshold for services, agents and tools (spec section 9). */
export const FUZZY_THRESHOLD = 0.3;

/**
 * Builds Fuse's index of the items once (`Fuse.createIndex`), before anyone types; each pattern then
 * gives the positions of the matching items in `items`, best match first. Shared by the page and the
 * search worker (lib/fuzzy-worker.ts), which therefore answer alike.
 */
export function createFuzzyMatcher<T>(
  items: readonly T[],
  keys: readonly string[],
  threshold = FUZZY_THRESHOLD,
): (pattern: string) => number[] {
  const index = Fuse.createIndex([...keys], items);
  const fuse = new Fuse(items, { keys: [...keys], threshold }, index);
  return (pattern) => fuse.search(pattern).map((result) => result.refIndex);
}

/** What the page sends the search worker: first the list to index, then each query. */
export type FuzzyWorkerRequest =
  { records: Record<string, unknown>[]; keys: string[]; threshold: number } | { query: string };

/** The worker's answer to a query: the positions of the matches in the indexed list, best first. */
export interface FuzzyWorkerAnswer {
  query: string;
  positions: Int32Array;
}

/** Something that exchanges messages like a worker (a Worker on the page, its global scope inside). */
export interface MessagePeer {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent) => void) | null;
}

/**
 * The search worker's side: indexes the list it is sent, then answers each query with the positions
 * of its matches, or of every item when the query is blank (as createFuzzySearch does).
 */
export function answerFuzzyRequests(scope: MessagePeer) {
  let match: (pattern: string) => number[] = () => [];
  let count = 0;
  scope.onmessage = ({ data }: MessageEvent<FuzzyWorkerRequest>) => {
    if ('records' in data) {
      match = createFuzzyMatcher(data.records, data.keys, data.threshold);
      count = data.records.length;
      return;
    }
    const pattern = data.query.trim();
    const positions = pattern
      ? Int32Array.from(match(pattern))
      : Int32Array.from({ length: count }, (_, position) => position);
    scope.postMessage({ query: data.query, positions } satisfies FuzzyWorkerAnswer, [positions.buffer]);
  };
}
