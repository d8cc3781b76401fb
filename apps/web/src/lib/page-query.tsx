import {
  useInfiniteQuery,
  useQuery,
  type DefaultError,
  type QueryKey,
  type UseInfiniteQueryOptions,
  type UseInfiniteQueryResult,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';

const InPendingCopy = createContext(false);

/**
 * The router's pending screen for a page whose loader fetches: the page itself, in its loading
 * state. The router swaps this copy for the real page (a remount) when the loader has ended and the
 * minimum pending display is over. Until then the copy shows only its loading state, never the
 * data or the error: a "Try again" clicked in it would start a fetch that the swap cancels (the
 * query loses its last observer), leaving the real page on the old error.
 */
export function pendingCopyOf(Page: () => ReactNode) {
  return function PendingCopy() {
    return (
      <InPendingCopy.Provider value={true}>
        <Page />
      </InPendingCopy.Provider>
    );
  };
}

/** What a query reads as in the router's pending copy of its page: loading, nothing else. */
const LOADING = {
  status: 'pending',
  isPending: true,
  isLoading: true,
  isSuccess: false,
  isError: false,
  isLoadingError: false,
  isRefetchError: false,
  isPlaceholderData: false,
  data: undefined,
  error: null,
} as const;

/**
 * A page's main query, the one its route's loader has just fetched: a failure shows as it is
 * instead of loading again on mount; in the router's pending copy it reads as loading.
 */
export function usePageQuery<
  TQueryFnData = unknown,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
>(options: UseQueryOptions<TQueryFnData, TError, TData, TQueryKey>): UseQueryResult<TData, TError> {
  const inPendingCopy = useContext(InPendingCopy);
  const query = useQuery({ ...options, retryOnMount: false });
  if (!inPendingCopy) return query;
  return { ...query, ...LOADING } as UseQueryResult<TData, TError>;
}

/**
 * `usePageQuery` for a list fetched in pages (lib/paged-list.ts), whose loader fetched the first
 * page. In the pending copy it reads as loading with no further page, so nothing there starts
 * fetching the next one either.
 */
export function usePageInfiniteQuery<
  TQueryFnData,
  TError = DefaultError,
  TData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
  TPageParam = unknown,
>(
  options: UseInfiniteQueryOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>,
): UseInfiniteQueryResult<TData, TError> {
  const inPendingCopy = useContext(InPendingCopy);
  const query = useInfiniteQuery({ ...options, retryOnMount: false });
  if (!inPendingCopy) return query;
  return {
    ...query,
    ...LOADING,
    hasNextPage: false,
    isFetchingNextPage: false,
    isFetchNextPageError: false,
  } as unknown as UseInfiniteQueryResult<TData, TError>;
}
