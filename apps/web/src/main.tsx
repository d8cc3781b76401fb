import './lib/zod-jitless';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApiClient } from './api/api-client';
import { ConfigErrorScreen } from './components/config-error-screen';
import { UiProvider } from './components/ui/provider';
import { RuntimeConfigProvider } from './config/runtime-config-context';
import { loadRuntimeConfig } from './config/runtime-config';
import { getAccessToken } from './features/auth';
import { Pending } from './components/pending';
import { loadAnalytics } from './features/analytics/load-analytics';
import { createAppRouter } from './router';

// The sign-in client is its own chunk, fetched in parallel with the first screen's code rather than
// before the app starts.
const AuthProvider = lazy(() =>
  import('./features/auth/auth-provider').then((m) => ({ default: m.AuthProvider })),
);

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
  root.render(
    <StrictMode>
      <RuntimeConfigProvider config={config}>
        <QueryClientProvider client={queryClient}>
          <UiProvider>
            <Suspense fallback={<Pending />}>
              <AuthProvider navigate={(path) => void router.navigate({ to: path, replace: true })}>
                <RouterProvider router={router} />
              </AuthProvider>
            </Suspense>
          </UiProvider>
        </QueryClientProvider>
      </RuntimeConfigProvider>
    </StrictMode>,
  );
}
