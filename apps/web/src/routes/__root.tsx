import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { NotFound } from '../components/not-found';
import { OutageNotice } from '../components/outage-notice';
import type { RouterContext } from '../router';

// Developer tools are separate chunks, loaded only outside production (spec section 2).
const RouterDevtools = lazy(() =>
  import('@tanstack/react-router-devtools').then((m) => ({ default: m.TanStackRouterDevtools })),
);
const QueryDevtools = lazy(() =>
  import('@tanstack/react-query-devtools').then((m) => ({ default: m.ReactQueryDevtools })),
);

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Root,
  notFoundComponent: NotFound,
});

function Root() {
  const { config } = Route.useRouteContext();
  return (
    <>
      <OutageNotice />
      <Outlet />
      {!config.isProduction && (
        <Suspense fallback={null}>
          <RouterDevtools position="bottom-right" />
          <QueryDevtools buttonPosition="bottom-left" />
        </Suspense>
      )}
    </>
  );
}
