import type { EnsureQueryDataOptions, QueryClient, QueryKey } from '@tanstack/react-query';
import { notFound } from '@tanstack/react-router';
import { prefetch } from './prefetch';

/** Ids in paths are positive integers; anything else is an unknown page. */
export function requireNumericId(id: string) {
  if (!/^[1-9]\d{0,15}$/.test(id)) throw notFound();
}

/**
 * The loader of a route about one object (`$Id`, whose `beforeLoad` is `requireNumericId`): the
 * object's query is loaded before the page paints, unless the beta gate shows instead. A route
 * names it as its `loader`, so that the router plugin moves it, with the API code it brings, out
 * of the route tree that every first visit loads (vite.config.ts).
 */
export function objectLoader<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  query: (id: number) => EnsureQueryDataOptions<TQueryFnData, TError, TData, TQueryKey>,
) {
  return ({
    context: { queryClient, accessCodeRequired },
    params,
  }: {
    context: { queryClient: QueryClient; accessCodeRequired: boolean };
    params: { Id: string };
  }) => (accessCodeRequired ? undefined : prefetch(queryClient, query(Number(params.Id))));
}

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** The page fills the shell's content area edge to edge (the chat frame). */
    fullBleed?: boolean;
  }
}
