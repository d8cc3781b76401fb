import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { UiProvider } from '../components/ui/provider';

/** Renders UI inside Cadre's providers. */
export function renderWithUi(ui: ReactNode) {
  return render(<UiProvider>{ui}</UiProvider>);
}

/**
 * Renders a component as the page at `path` of a throwaway router (for components that use
 * router links), inside Cadre's providers.
 */
export function renderAtRoute(component: () => ReactNode, path = '/') {
  const rootRoute = createRootRoute();
  const page = createRoute({ getParentRoute: () => rootRoute, path, component });
  const router = createRouter({
    routeTree: rootRoute.addChildren([page]),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <UiProvider>
        <RouterProvider router={router as never} />
      </UiProvider>
    </QueryClientProvider>,
  );
}
