import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { expect } from 'vitest';
import type { RuntimeConfig } from '@cadre/contract';
import { toaster } from '../components/ui/toaster';
import { UiProvider } from '../components/ui/provider';
import { RuntimeConfigProvider } from '../config/runtime-config-context';
import type { AuthClient } from '../features/auth';
import { AuthProvider } from '../features/auth/auth-provider';
import { PASSWORD_SIGNED_IN_KEY } from '../features/auth/access-code';
import { App, createApp } from '../app';
import { API_URL } from './fake-api';

export const testConfig: RuntimeConfig = {
  analyticsTagId: '',
  heatmapTracking: { siteId: 0, version: 6 },
  isProduction: false,
  isDevelopment: true,
  disableAuth0: true,
  chainlitUrl: 'http://app.test/chainlit',
  chainlitDemosUrl: 'http://app.test/demos',
  apiUrl: API_URL,
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

/** Someone signed in (there is no sign-in client: the screens see the mock session). */
export const signedInAuth: AuthClient = {
  disabled: false,
  isSignedIn: async () => true,
  signInUrl: async (returnTo) => `http://app.test/idp/auth?return=${encodeURIComponent(returnTo)}`,
  refresh: async () => false,
  forget: async () => {},
};

/**
 * The whole app at `path`, as start.tsx assembles it (router with its guard and loaders, query cache
 * with its 401 handling, providers), past the access-code gate unless `accessCode` is false. Pair
 * it with installFakeApi for the server.
 */
export function renderApp(
  path: string,
  options: { auth?: Partial<AuthClient>; accessCode?: boolean; config?: RuntimeConfig } = {},
) {
  if (options.accessCode === false) window.localStorage.removeItem(PASSWORD_SIGNED_IN_KEY);
  else window.localStorage.setItem(PASSWORD_SIGNED_IN_KEY, 'true');
  const auth = { ...signedInAuth, ...options.auth };
  // As the shown build (spec section 3): production, so no developer tools.
  const config = options.config ?? { ...testConfig, isProduction: true, isDevelopment: false };
  const { queryClient, router } = createApp({
    config,
    auth,
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  const user = userEvent.setup();
  const result = render(
    <App config={config} auth={auth} queryClient={queryClient} router={router} AuthProvider={AuthProvider} />,
  );
  return { ...result, router, queryClient, user, auth };
}

/**
 * Waits for a toast to show `title` and returns what the toaster holds for it (title,
 * description, type and duration), as the person sees it.
 */
export async function findToast(title: string) {
  await screen.findByText(title);
  let toast: ReturnType<typeof toaster.getVisibleToasts>[number] | undefined;
  await waitFor(() => {
    toast = toaster.getVisibleToasts().find((t) => t.title === title);
    expect(toast).toBeDefined();
  });
  const { description, type, duration } = toast!;
  return { title, ...(description === undefined ? {} : { description }), type, duration };
}
