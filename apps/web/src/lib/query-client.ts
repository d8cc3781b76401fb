import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isUnauthorized } from '../api/api-error';

/**
 * The app's query cache. A 401 from any query or mutation goes to `onUnauthorized` once, here,
 * instead of to each screen; the screen still shows its own error state or toast meanwhile.
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
        retry: (failures, error) => failures < 1 && !isUnauthorized(error),
        refetchOnWindowFocus: false,
        staleTime: options.staleTime,
      },
    },
  });
}

/** Fetches again the queries a refused token failed (after a silent refresh brought a new one). */
export const refetchRefused = (queryClient: QueryClient) =>
  queryClient.refetchQueries({ predicate: (query) => isUnauthorized(query.state.error) });
