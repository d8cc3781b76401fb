import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { RuntimeConfig } from '@cadre/contract';
import { configureApiClient } from './api/api-client';
import { UiProvider } from './components/ui/provider';
import { loadAnalytics } from './features/analytics/load-analytics';
import { AccessCodePage } from './features/auth/components/access-code-page';

/**
 * Renders the access-code page alone, as the shell's guard would show it in place of the page asked
 * for (the address stays). Loaded by main.tsx instead of start.tsx, so the page paints without the
 * router, the shell and the screens behind it; a correct code reloads at `/`, into the app.
 */
export function showGate(config: RuntimeConfig) {
  loadAnalytics(config);
  // No session before the code is passed: the sign-in request goes without a token.
  configureApiClient({ baseUrl: config.apiUrl, getAccessToken: async () => undefined });
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <UiProvider>
        <AccessCodePage />
      </UiProvider>
    </StrictMode>,
  );
}
