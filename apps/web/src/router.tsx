import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import type { RuntimeConfig } from '@cadre/contract';
import { NotFound } from './components/not-found';
import { Pending } from './components/pending';
import { RouteError } from './components/route-error';
import { routeTree } from './routeTree.gen';

export interface RouterContext {
  queryClient: QueryClient;
  config: RuntimeConfig;
}

/** Router defaults of spec section 9. */
export const ROUTER_DEFAULTS = {
  defaultPendingMs: 1000,
  defaultPendingMinMs: 500,
  defaultPreloadDelay: 50,
  defaultPreloadStaleTime: 30_000,
  defaultGcTime: 5 * 60_000,
} as const;

export function createAppRouter(context: RouterContext) {
  return createRouter({
    routeTree,
    context,
    ...ROUTER_DEFAULTS,
    defaultPreload: 'intent',
    defaultNotFoundComponent: NotFound,
    defaultErrorComponent: RouteError,
    defaultPendingComponent: Pending,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
