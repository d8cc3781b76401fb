import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider, type RouterHistory } from '@tanstack/react-router';
import type { ComponentType, ReactNode } from 'react';
import type { RuntimeConfig } from '@cadre/contract';
import { UiProvider } from './components/ui/provider';
import { RuntimeConfigProvider } from './config/runtime-config-context';
import { createSessionRecovery, type AuthClient } from './features/auth';
import { createQueryClient, refetchRefused } from './lib/query-client';
import { createAppRouter, ROUTER_DEFAULTS } from './router';

/**
 * The app's query cache and router, wired together: a 401 from any query or mutation runs the
 * session recovery, which retries the refused queries after a silent refresh or runs the guards
 * again (the shell's sends the browser to sign-in). start.tsx and the page tests both build it here.
 */
export function createApp(options: { config: RuntimeConfig; auth: AuthClient; history?: RouterHistory }) {
  const queryClient = createQueryClient({
    onUnauthorized: () => onUnauthorized(),
    staleTime: ROUTER_DEFAULTS.defaultPreloadStaleTime,
  });
  const router = createAppRouter(
    { queryClient, config: options.config, auth: options.auth },
    options.history,
  );
  const onUnauthorized = createSessionRecovery({
    auth: options.auth,
    retryRefused: () => refetchRefused(queryClient),
    toSignIn: () => router.invalidate(),
  });
  return { queryClient, router };
}

/** The providers every screen has, around the router. */
export function App(props: {
  config: RuntimeConfig;
  auth: AuthClient;
  queryClient: QueryClient;
  router: ReturnType<typeof createAppRouter>;
  /** The sign-in state for the screens (from the sign-in module, see start.tsx). */
  AuthProvider: ComponentType<{ auth: AuthClient; navigate: (path: string) => void; children: ReactNode }>;
}) {
  const { AuthProvider, router } = props;
  return (
    <RuntimeConfigProvider config={props.config}>
      <QueryClientProvider client={props.queryClient}>
        <UiProvider>
          <AuthProvider
            auth={props.auth}
            navigate={(path) => void router.navigate({ to: path, replace: true })}
          >
            <RouterProvider router={router} />
          </AuthProvider>
        </UiProvider>
      </QueryClientProvider>
    </RuntimeConfigProvider>
  );
}
