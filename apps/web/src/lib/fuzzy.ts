import Fuse, { type FuseOptionKey } from 'fuse.js';
import { useMemo } from 'react';

/** The fuzzy-search threshold for services, agents and tools (spec section 9). */
export const FUZZY_THRESHOLD = 0.3;

/** Builds the search index once per list; searching then costs one pass per keystroke. */
export function createFuzzySearch<T>(
  items: readonly T[],
  keys: FuseOptionKey<T>[],
  threshold = FUZZY_THRESHOLD,
) {
  const fuse = new Fuse(items, { keys, threshold });
  return (query: string): T[] => {
    const trimmed = query.trim();
    if (!trimmed) return [...items];
    return fuse.search(trimmed).map((result) => result.item);
  };
}

/** The items matching `query` (all of them when the query is blank), best match first. */
export function useFuzzyFilter<T>(
  items: readonly T[] | undefined,
  query: string,
  keys: FuseOptionKey<T>[],
  threshold = FUZZY_THRESHOLD,
): T[] {
  // The keys are constants of each screen; joining them keeps the index stable across renders.
  const keyId = JSON.stringify(keys);
  const search = useMemo(
    () => createFuzzySearch(items ?? [], JSON.parse(keyId) as FuseOptionKey<T>[], threshold),
    [items, keyId, threshold],
  );
  return useMemo(() => search(query), [search, query]);
}
