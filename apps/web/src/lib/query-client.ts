import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { outageRetryDelayMs } from '@cadre/contract';
import { isUnauthorized, outageOfError, type ApiError } from '../api/api-error';

/**
 * The app's query cache. A 401 from any query or mutation goes to `onUnauthorized` once, here,
 * instead of to each screen; the screen still shows its own error state or toast meanwhile. A
 * query that meets an outage (503 `db_unavailable`, or Cadre unreachable behind its proxy) is
 * tried again until it works, waiting as the answer's Retry-After asks and longer with each
 * failure: the screen stays as it was (loading, or the data it had) while the outage notice says
 * what happens (components/outage-notice.tsx), and it recovers by itself. Mutations are not
 * tried again: the person who asked sees their failure.
 */
export function createQueryClient(options: {
  onUnauthorized: () => Promise<void>;
  /** How long fetched data counts as fresh: a page whose loader has just fetched, fetches no more. */
  staleTime: number;
}): QueryClient {
  const onError = (error: unknown) => {
    if (isUnauthorized(error)) void options.onUnauthorized().catch(() => {});
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        // One more try for a failure that may pass; a refused token is not retried but renewed.
        retry: (failures, error) => !!outageOfError(error) || (failures < 1 && !isUnauthorized(error)),
        retryDelay: (failures, error) =>
          outageOfError(error)
            ? outageRetryDelayMs(failures + 1, (error as Partial<ApiError>).retryAfter)
            : DEFAULT_RETRY_DELAY_MS,
        refetchOnWindowFocus: false,
        staleTime: options.staleTime,
      },
    },
  });
}

/** TanStack Query's own first retry delay, for the one retry of any other failure. */
const DEFAULT_RETRY_DELAY_MS = 1_000;

/** Fetches again the queries a refused token failed (after a silent refresh brought a new one). */
export const refetchRefused = (queryClient: QueryClient) =>
  queryClient.refetchQueries({ predicate: (query) => isUnauthorized(query.state.error) });
