import type { EnsureQueryDataOptions, QueryClient, QueryKey } from '@tanstack/react-query';

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
