import './lib/zod-jitless';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApiClient } from './api/api-client';
import { ConfigErrorScreen } from './components/config-error-screen';
import { UiProvider } from './components/ui/provider';
import { RuntimeConfigProvider } from './config/runtime-config-context';
import { loadRuntimeConfig } from './config/runtime-config';
import { loadAnalytics } from './features/analytics/load-analytics';
import { getAccessToken } from './lib/access-token';
import { createAppRouter } from './router';

// The sign-in client is its own chunk (it keeps the app shell inside its size budget), requested
// before the runtime configuration is fetched and awaited before the first render, so the app
// renders once instead of first behind a Suspense fallback (which showed /agents later: see
// docs/benchmarks.md).
const authProviderModule = import('./features/auth/auth-provider');

const root = createRoot(document.getElementById('root')!);

// The runtime configuration decides everything else (API origin, sign-in), so it is fetched and
// checked before the first render; a bad one gets a screen that names the bad fields.
const result = await loadRuntimeConfig();

if (!result.ok) {
  root.render(
    <StrictMode>
      <UiProvider>
        <ConfigErrorScreen problems={result.problems} />
      </UiProvider>
    </StrictMode>,
  );
} else {
  const config = result.config;
  loadAnalytics(config);
  configureApiClient({ baseUrl: config.apiUrl, getAccessToken });
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
  });
  const router = createAppRouter({ queryClient, config });
  // Matching the address and fetching the first screen's code start now, alongside the first
  // render, rather than after the router has mounted.
  void router.load();
  const { AuthProvider } = await authProviderModule;
  root.render(
    <StrictMode>
      <RuntimeConfigProvider config={config}>
        <QueryClientProvider client={queryClient}>
          <UiProvider>
            <AuthProvider navigate={(path) => void router.navigate({ to: path, replace: true })}>
              <RouterProvider router={router} />
            </AuthProvider>
          </UiProvider>
        </QueryClientProvider>
      </RuntimeConfigProvider>
    </StrictMode>,
  );
}
