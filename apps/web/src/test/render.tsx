import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { RuntimeConfig } from '@cadre/contract';
import { RuntimeConfigProvider } from '../config/runtime-config-context';
import { system } from '../theme';

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

/** Renders with the providers every screen has: UI system, runtime configuration, query cache. */
export function renderWithProviders(ui: ReactNode, config: RuntimeConfig = testConfig) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const result = render(
    <RuntimeConfigProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <ChakraProvider value={system}>{ui}</ChakraProvider>
      </QueryClientProvider>
    </RuntimeConfigProvider>,
  );
  return { ...result, queryClient };
}
