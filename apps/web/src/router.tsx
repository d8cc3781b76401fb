import type { QueryClient } from '@tanstack/react-query';
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import type { RuntimeConfig } from '@cadre/contract';
import type { AuthClient } from './features/auth';
import { NotFound } from './components/not-found';
import { Pending } from './components/pending';
import { RouteError } from './components/route-error';
import { routeTree } from './routeTree.gen';

export interface RouterContext {
  queryClient: QueryClient;
  config: RuntimeConfig;
  auth: AuthClient;
}

/** Router defaults of spec section 9. */
export const ROUTER_DEFAULTS = {
  defaultPendingMs: 1000,
  defaultPendingMinMs: 500,
  defaultPreloadDelay: 50,
  defaultPreloadStaleTime: 30_000,
  defaultGcTime: 5 * 60_000,
} as const;

/** The app's router; tests pass a memory history. */
export function createAppRouter(context: RouterContext, history?: RouterHistory) {
  return createRouter({
    routeTree,
    context,
    history,
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
