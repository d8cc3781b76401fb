import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApiClient } from './api/api-client';
import { App, createApp } from './app';
import { UiProvider } from './components/ui/provider';
import type { RuntimeConfigResult } from './config/runtime-config';
import { loadAnalytics } from './features/analytics/load-analytics';
import { AuthProvider, createAuthClient } from './features/auth/auth-provider';
import { getAccessToken } from './lib/access-token';

/**
 * Renders the app, or, when the runtime configuration (which decides the API origin and sign-in)
 * is bad, a screen that names the bad fields. Loaded by main.tsx once it knows the app will render.
 */
export function start(result: RuntimeConfigResult) {
  const root = createRoot(document.getElementById('root')!);
  if (!result.ok) {
    // Fetched only for a server whose configuration is broken.
    void import('./components/config-error-screen').then(({ ConfigErrorScreen }) =>
      root.render(
        <StrictMode>
          <UiProvider>
            <ConfigErrorScreen problems={result.problems} />
          </UiProvider>
        </StrictMode>,
      ),
    );
    return;
  }
  const config = result.config;
  loadAnalytics(config);
  configureApiClient({ baseUrl: config.apiUrl, getAccessToken });
  const auth = createAuthClient(config);
  const { queryClient, router } = createApp({ config, auth });
  // Matching the address, the guard and the first screen's loader and code start now, alongside
  // the first render, rather than after the router has mounted.
  void router.load();
  root.render(
    <StrictMode>
      <App
        config={config}
        auth={auth}
        queryClient={queryClient}
        router={router}
        AuthProvider={AuthProvider}
      />
    </StrictMode>,
  );
}
