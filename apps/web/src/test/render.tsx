import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { RuntimeConfig } from '@cadre/contract';
import { UiProvider } from '../components/ui/provider';
import { RuntimeConfigProvider } from '../config/runtime-config-context';

export const testConfig: RuntimeConfig = {
  analyticsTagId: '',
  heatmapTracking: { siteId: 0, version: 6 },
  isProduction: false,
  isDevelopment: true,
  disableAuth0: true,
  chainlitUrl: 'http://app.test/chainlit',
  chainlitDemosUrl: 'http://app.test/demos',
  apiUrl: 'http://app.test/backend',
  auth0Domain: 'http://app.test/idp',
  auth0ClientId: 'cadre-web',
  auth0RedirectUri: 'http://app.test',
  auth0Audience: 'cadre-api',
  auth0LogoutRedirect: 'http://app.test',
  feedbackUrl: '',
};

/** Renders UI inside Cadre's UI provider only. */
export function renderWithUi(ui: ReactNode) {
  return render(<UiProvider>{ui}</UiProvider>);
}

/** Renders with the providers every screen has: UI system, runtime configuration, query cache. */
export function renderWithProviders(ui: ReactNode, config: RuntimeConfig = testConfig) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const result = render(
    <RuntimeConfigProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <UiProvider>{ui}</UiProvider>
      </QueryClientProvider>
    </RuntimeConfigProvider>,
  );
  return { ...result, queryClient };
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
  return renderWithProviders(<RouterProvider router={router as never} />);
}
