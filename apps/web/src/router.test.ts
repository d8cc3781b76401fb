import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createAppRouter, ROUTER_DEFAULTS } from './router';

describe('router', () => {
  it('uses the router defaults of spec section 9', () => {
    expect(ROUTER_DEFAULTS).toEqual({
      defaultPendingMs: 1000,
      defaultPendingMinMs: 500,
      defaultPreloadDelay: 50,
      defaultPreloadStaleTime: 30_000,
      defaultGcTime: 300_000,
    });
    const router = createAppRouter({ queryClient: new QueryClient(), config: {} as never });
    expect(router.options).toMatchObject(ROUTER_DEFAULTS);
  });

  it('redirects / to /info', async () => {
    const router = createAppRouter({ queryClient: new QueryClient(), config: {} as never });
    await router.navigate({ to: '/' });
    await router.load();
    expect(router.state.location.pathname).toBe('/info');
  });
});
