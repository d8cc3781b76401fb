import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../components/ui/toaster';
import * as api from './api/services-api';
import { useServiceOperations } from './use-service-operations';

vi.mock('./api/services-api', async (importOriginal) => ({
  ...(await importOriginal<typeof api>()),
  registerAuthService: vi.fn(),
  registerApiService: vi.fn(),
  registerNoauthService: vi.fn(),
  disconnectService: vi.fn(),
}));

const service = (auth: string): api.Service => ({
  id: 7,
  name: 'Gmail',
  description: 'Mail',
  logo: '',
  status: 'INACTIVE',
  auth_schemes: [auth],
});

let toast: ReturnType<typeof vi.spyOn>;
let open: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  toast = vi.spyOn(toaster, 'create');
  open = vi.spyOn(window, 'open').mockReturnValue(null);
});
afterEach(() => vi.resetAllMocks());

function setup() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(() => useServiceOperations(), { wrapper });
}

describe('service registration and disconnect', () => {
  it('opens the OAuth redirectUrl in a new tab, without a toast', async () => {
    vi.mocked(api.registerAuthService).mockResolvedValue({ redirectUrl: 'https://auth.example.com/x' });
    const { result } = setup();
    await act(() => result.current.register.mutateAsync({ service: service('OAUTH2') }));
    expect(open).toHaveBeenCalledWith('https://auth.example.com/x', '_blank', 'noopener,noreferrer');
    expect(toast).not.toHaveBeenCalled();
  });

  it('refuses a javascript: redirect with the OAuth failure toast', async () => {
    vi.mocked(api.registerAuthService).mockResolvedValue({ redirectUrl: 'javascript:alert(1)' });
    const { result } = setup();
    await act(() => result.current.register.mutateAsync({ service: service('OAUTH2') }));
    expect(open).not.toHaveBeenCalled();
    expect(toast).toHaveBeenCalledWith({
      title: 'Failed to register Gmail via Auth.',
      type: 'error',
      duration: 5000,
    });
  });

  it('shows the success toast when the service is ACTIVE, Registration Error otherwise', async () => {
    vi.mocked(api.registerApiService).mockResolvedValueOnce({ connectionStatus: 'ACTIVE' });
    vi.mocked(api.registerApiService).mockResolvedValueOnce({ connectionStatus: 'FAILED' });
    const { result } = setup();
    await act(() => result.current.register.mutateAsync({ service: service('API_KEY'), apiKey: 'k' }));
    expect(api.registerApiService).toHaveBeenCalledWith(7, 'k');
    expect(toast).toHaveBeenLastCalledWith({
      title: 'Service Registered Successfully',
      description: 'The service "Gmail" is now active.',
      type: 'success',
      duration: 5000,
    });
    await act(() => result.current.register.mutateAsync({ service: service('API_KEY'), apiKey: 'k' }));
    expect(toast).toHaveBeenLastCalledWith({
      title: 'Registration Error',
      description: 'The service "Gmail" didn\'t become active.',
      type: 'error',
      duration: 5000,
    });
  });

  it.each([
    ['API_KEY', 'registerApiService', 'Failed to register Gmail by API key.'],
    ['OAUTH2', 'registerAuthService', 'Failed to register Gmail via Auth.'],
    ['NO_AUTH', 'registerNoauthService', 'Failed to register Gmail without authentication.'],
  ] as const)('a failed %s registration shows "%s"', async (scheme, call, text) => {
    vi.mocked(api[call]).mockRejectedValue(new Error('boom'));
    const { result } = setup();
    await act(async () => {
      await result.current.register
        .mutateAsync({ service: service(scheme), apiKey: 'k' })
        .catch(() => undefined);
    });
    expect(toast).toHaveBeenCalledWith({ title: text, type: 'error', duration: 5000 });
  });

  it('assumes success for a no-auth service', async () => {
    vi.mocked(api.registerNoauthService).mockResolvedValue({});
    const { result } = setup();
    await act(() => result.current.register.mutateAsync({ service: service('NO_AUTH') }));
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Service Registered Successfully' }));
  });

  it('disconnect: success and failure toasts', async () => {
    vi.mocked(api.disconnectService).mockResolvedValueOnce(undefined);
    vi.mocked(api.disconnectService).mockRejectedValueOnce(new Error('no'));
    const { result } = setup();
    await act(() => result.current.disconnect.mutateAsync(service('NO_AUTH')));
    expect(toast).toHaveBeenLastCalledWith({
      title: 'Service Disconnected',
      description: 'The service "Gmail" has been disconnected.',
      type: 'success',
      duration: 5000,
    });
    await act(async () => {
      await result.current.disconnect.mutateAsync(service('NO_AUTH')).catch(() => undefined);
    });
    expect(toast).toHaveBeenLastCalledWith({
      title: 'Failed to disconnect Gmail.',
      type: 'error',
      duration: 5000,
    });
  });

  it('reports pending while any operation runs', async () => {
    let finish!: (value: api.RegistrationResponse) => void;
    vi.mocked(api.registerNoauthService).mockReturnValue(new Promise((resolve) => (finish = resolve)));
    const { result } = setup();
    expect(result.current.pending).toBe(false);
    act(() => result.current.register.mutate({ service: service('NO_AUTH') }));
    await waitFor(() => expect(result.current.pending).toBe(true));
    await act(async () => finish({}));
    await waitFor(() => expect(result.current.pending).toBe(false));
  });
});
