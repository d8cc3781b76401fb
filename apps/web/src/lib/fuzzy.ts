import Fuse from 'fuse.js';
import { useDeferredValue, useMemo } from 'react';

/** The fuzzy-search threshold for services, agents and tools (spec section 9). */
export const FUZZY_THRESHOLD = 0.3;

/**
 * Indexes the items once; each query then returns what Fuse matches on the given keys, best match
 * first, or every item in its own order when the query is blank.
 */
export function createFuzzySearch<T>(
  items: readonly T[],
  keys: readonly string[],
  threshold = FUZZY_THRESHOLD,
): (query: string) => T[] {
  const fuse = new Fuse(items, { keys: [...keys], threshold });
  return (query) => {
    const pattern = query.trim();
    return pattern ? fuse.search(pattern).map((result) => result.item) : [...items];
  };
}

/**
 * The items matching `query`, best match first. The filtering follows a deferred copy of the query,
 * so the search box keeps up with typing while a long list is searched.
 */
export function useFuzzyFilter<T>(
  items: readonly T[] | undefined,
  query: string,
  keys: readonly string[],
  threshold = FUZZY_THRESHOLD,
): T[] {
  // The keys are constants of each screen; joining them keeps the index stable across renders.
  const keyId = keys.join('\n');
  const search = useMemo(
    () => createFuzzySearch(items ?? [], keyId.split('\n'), threshold),
    [items, keyId, threshold],
  );
  const deferredQuery = useDeferredValue(query);
  return useMemo(() => search(deferredQuery), [search, deferredQuery]);
}
