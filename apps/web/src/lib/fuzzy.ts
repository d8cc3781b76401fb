import Fuse from 'fuse.js';
import { useMemo } from 'react';

/** The fuzzy-search threshold for services, agents and tools (spec section 9). */
export const FUZZY_THRESHOLD = 0.3;

/** Fuse scores a match as errors / pattern length (plus a distance penalty), so this many errors at most pass. */
export const maxErrors = (patternLength: number, threshold: number) => Math.floor(patternLength * threshold);

/** Splits a pattern into `count` contiguous pieces of nearly equal length. */
export function splitPattern(pattern: string, count: number): string[] {
  const pieces: string[] = [];
  const size = pattern.length / count;
  for (let i = 0; i < count; i++)
    pieces.push(pattern.slice(Math.round(i * size), Math.round((i + 1) * size)));
  return pieces.filter(Boolean);
}

// Fuse's bitap works on at most 32 characters at a time; longer patterns skip the pre-filter.
const BITAP_MAX = 32;

/**
 * Builds the search once per list; each query then returns the items Fuse matches with the given
 * keys and threshold, best first. Before running Fuse it drops the items that cannot match: a text
 * within k edits of the pattern contains at least one of k + 1 disjoint pieces of it unchanged
 * (pigeonhole), and k is at most threshold x pattern length. The result is what Fuse alone returns,
 * in far less time on long lists.
 */
export function createFuzzySearch<T>(
  items: readonly T[],
  keys: readonly string[],
  threshold = FUZZY_THRESHOLD,
) {
  const options = { keys: [...keys], threshold };
  const index = Fuse.createIndex(options.keys, items);
  const fuse = new Fuse(items, options, index);
  const { keys: indexKeys, records } = index.toJSON();
  const haystacks = items.map((item) =>
    keys.map((key) => {
      const value = (item as Record<string, unknown>)[key];
      return typeof value === 'string' ? value.toLowerCase() : '';
    }),
  );
  return (query: string): T[] => {
    const pattern = query.trim();
    if (!pattern) return [...items];
    if (pattern.length > BITAP_MAX) return fuse.search(pattern).map((r) => r.item);
    const pieces = splitPattern(pattern.toLowerCase(), maxErrors(pattern.length, threshold) + 1);
    // The candidates keep their place in the full index, so Fuse ranks them exactly as it would.
    const candidates = records.filter((record) =>
      haystacks[record.i]!.some((text) => pieces.some((piece) => text.includes(piece))),
    );
    if (candidates.length === records.length) return fuse.search(pattern).map((r) => r.item);
    const subset = Fuse.parseIndex<T>({ keys: indexKeys, records: candidates });
    return new Fuse(items, options, subset).search(pattern).map((r) => r.item);
  };
}

/** The items matching `query` (all of them when the query is blank), best match first. */
export function useFuzzyFilter<T>(
  items: readonly T[] | undefined,
  query: string,
  keys: readonly string[],
  threshold = FUZZY_THRESHOLD,
): T[] {
  // The keys are constants of each screen; joining them keeps the search stable across renders.
  const keyId = keys.join('\n');
  const search = useMemo(
    () => createFuzzySearch(items ?? [], keyId.split('\n'), threshold),
    [items, keyId, threshold],
  );
  return useMemo(() => search(query), [search, query]);
}
