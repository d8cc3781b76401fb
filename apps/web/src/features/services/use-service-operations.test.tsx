import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../components/ui/toaster';
import { held, installFakeApi, json, TEST_TOKEN } from '../../test/fake-api';
import type { Service } from './api/services-api';
import { useServiceOperations } from './use-service-operations';

const service = (auth: string): Service => ({
  id: 7,
  name: 'Gmail',
  description: 'Mail',
  logo: '',
  status: 'INACTIVE',
  auth_schemes: [auth],
  last_used_at: null,
  last_error: null,
});

let toast: ReturnType<typeof vi.spyOn>;
let open: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  toast = vi.spyOn(toaster, 'create');
  open = vi.spyOn(window, 'open').mockReturnValue(null);
});
afterEach(() => vi.restoreAllMocks());

function setup() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(() => useServiceOperations(), { wrapper });
}

describe('service registration and disconnect', () => {
  it.each([
    ['OAUTH2', 'POST', '/api/v1/services/7/register_auth_service', undefined],
    ['BEARER_TOKEN', 'POST', '/api/v1/services/7/register_auth_service', undefined],
    ['API_KEY', 'POST', '/api/v1/services/7/register_api_service', { api_key: 'sk-1' }],
    ['NO_AUTH', 'POST', '/api/v1/services/7/register_noauth_service', undefined],
    ['NO_OAUTH', 'POST', '/api/v1/services/7/register_noauth_service', undefined],
  ])('registers a %s service with %s %s', async (scheme, method, path, body) => {
    const api = installFakeApi({
      'POST /api/v1/services/:service_id/:call': () => json({ connectionStatus: 'ACTIVE' }),
    });
    const { result } = setup();
    await act(() => result.current.register.mutateAsync({ service: service(scheme), apiKey: 'sk-1' }));
    expect(api.requests).toMatchObject([{ method, path, body }]);
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
  });

  it('disconnects with DELETE .../disconnect_composio_service', async () => {
    const api = installFakeApi({
      'DELETE /api/v1/services/:service_id/disconnect_composio_service': () =>
        new Response(null, { status: 204 }),
    });
    const { result } = setup();
    await act(() => result.current.disconnect.mutateAsync(service('NO_AUTH')));
    expect(api.requests).toMatchObject([
      { method: 'DELETE', path: '/api/v1/services/7/disconnect_composio_service', body: undefined },
    ]);
  });

  it('opens the OAuth redirectUrl in a new tab, without a toast', async () => {
    installFakeApi({
      'POST /api/v1/services/:service_id/register_auth_service': () =>
        json({ redirectUrl: 'https://auth.example.com/x', connectionStatus: 'INITIATED' }),
    });
    const { result } = setup();
    await act(() => result.current.register.mutateAsync({ service: service('OAUTH2') }));
    expect(open).toHaveBeenCalledWith('https://auth.example.com/x', '_blank', 'noopener,noreferrer');
    expect(toast).not.toHaveBeenCalled();
  });

  it('refuses a javascript: redirect with the OAuth failure toast', async () => {
    installFakeApi({
      'POST /api/v1/services/:service_id/register_auth_service': () =>
        json({ redirectUrl: 'javascript:alert(1)', connectionStatus: 'INITIATED' }),
    });
    const { result } = setup();
    await act(() => result.current.register.mutateAsync({ service: service('OAUTH2') }));
    expect(open).not.toHaveBeenCalled();
    expect(toast).toHaveBeenCalledWith({
      title: 'Failed to register Gmail via Auth.',
      type: 'error',
      duration: 5000,
    });
  });

  it('assumes success for a no-auth service whatever the answer says', async () => {
    installFakeApi({
      'POST /api/v1/services/:service_id/register_noauth_service': () =>
        json({ connectionStatus: 'PENDING' }),
    });
    const { result } = setup();
    await act(() => result.current.register.mutateAsync({ service: service('NO_AUTH') }));
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Service Registered Successfully' }));
  });

  it('reports pending while any operation runs', async () => {
    const registration = held();
    installFakeApi({ 'POST /api/v1/services/:service_id/register_noauth_service': registration.handler });
    const { result } = setup();
    expect(result.current.pending).toBe(false);
    act(() => result.current.register.mutate({ service: service('NO_AUTH') }));
    await waitFor(() => expect(result.current.pending).toBe(true));
    registration.release(json({}));
    await waitFor(() => expect(result.current.pending).toBe(false));
  });
});
