import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApiClient } from './api/api-client';
import { App, createApp } from './app';
import { ConfigErrorScreen } from './components/config-error-screen';
import { UiProvider } from './components/ui/provider';
import { loadRuntimeConfig } from './config/runtime-config';
import { loadAnalytics } from './features/analytics/load-analytics';
import { getAccessToken } from './lib/access-token';

// The sign-in client is its own chunk (it keeps the app shell inside its size budget), requested
// before the runtime configuration is fetched and awaited before the router is built: the shell's
// guard asks it who is signed in (see docs/benchmarks.md).
const signInModule = import('./features/auth/auth-provider');

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
  const { AuthProvider, createAuthClient } = await signInModule;
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
