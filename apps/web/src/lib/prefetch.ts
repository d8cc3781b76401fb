import type {
  EnsureInfiniteQueryDataOptions,
  EnsureQueryDataOptions,
  QueryClient,
  QueryKey,
} from '@tanstack/react-query';

/**
 * A route loader's query: it resolves once the data is in the cache (at once when it already is),
 * so the page paints with it instead of a loading state. A failure is left in the cache for the
 * page to show in its own words, rather than thrown to the route's error screen.
 */
export async function prefetch<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  queryClient: QueryClient,
  options: EnsureQueryDataOptions<TQueryFnData, TError, TData, TQueryKey>,
): Promise<void> {
  await queryClient.ensureQueryData(options).catch(() => undefined);
}

/** `prefetch` for a list fetched in pages (lib/paged-list.ts): its first page. */
export async function prefetchPages<TQueryFnData, TError, TData, TQueryKey extends QueryKey, TPageParam>(
  queryClient: QueryClient,
  options: EnsureInfiniteQueryDataOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>,
): Promise<void> {
  await queryClient.ensureInfiniteQueryData(options).catch(() => undefined);
}
