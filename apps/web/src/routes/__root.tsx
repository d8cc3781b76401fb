import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { usePainted } from '@cadre/ui';
import { NotFound } from '../components/not-found';
import type { RouterContext } from '../router';

// The outage line (with Chakra's alert and its icons) is its own chunk, requested once the first
// screen has painted, as the toasts are (components/ui/toaster.tsx): no first paint needs it, and
// it is in the cache before an outage can show it (docs/benchmarks.md, "First visit JS").
const OutageNotice = lazy(() =>
  import('../components/outage-notice').then((m) => ({ default: m.OutageNotice })),
);

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
  const painted = usePainted();
  return (
    <>
      {painted && (
        <Suspense fallback={null}>
          <OutageNotice />
        </Suspense>
      )}
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
