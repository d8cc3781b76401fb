import { useIsMutating, useMutation, useQueryClient } from '@tanstack/react-query';
import { toaster } from '../../components/ui/toaster';
import {
  disconnectService,
  registerApiService,
  registerAuthService,
  registerNoauthService,
  refreshServices,
  SERVICE_OPERATION_KEY,
  type Service,
} from './api/services-api';
import { SERVICE_TOAST_DURATION, SERVICE_TOASTS, type ToastText } from './constants';
import { authKind, registrationOutcome } from './services-logic';

const toast = (text: ToastText, type: 'success' | 'error') =>
  toaster.create({ ...text, type, duration: SERVICE_TOAST_DURATION });

const failure = {
  apiKey: SERVICE_TOASTS.registerFailedApiKey,
  oauth: SERVICE_TOASTS.registerFailedOAuth,
  noAuth: SERVICE_TOASTS.registerFailedNoAuth,
} as const;

/** Register and disconnect, with every outcome and toast of spec sections 4 and 8. */
export function useServiceOperations() {
  const queryClient = useQueryClient();

  const register = useMutation({
    mutationKey: SERVICE_OPERATION_KEY,
    mutationFn: async ({ service, apiKey }: { service: Service; apiKey?: string }) => {
      const kind = authKind(service);
      const response =
        kind === 'apiKey'
          ? await registerApiService(service.id, apiKey ?? '')
          : kind === 'noAuth'
            ? await registerNoauthService(service.id)
            : await registerAuthService(service.id);
      return registrationOutcome(kind, response);
    },
    onSuccess: (outcome, { service }) => {
      if (outcome.kind === 'redirect') {
        window.open(outcome.url, '_blank', 'noopener,noreferrer');
      } else if (outcome.kind === 'active') {
        toast(SERVICE_TOASTS.registered(service.name), 'success');
      } else if (outcome.kind === 'notActive') {
        toast(SERVICE_TOASTS.notActive(service.name), 'error');
      } else {
        toast(failure[authKind(service)](service.name), 'error');
      }
    },
    onError: (_error, { service }) => toast(failure[authKind(service)](service.name), 'error'),
    onSettled: (_data, _error, { service }) => refreshServices(queryClient, service.id),
  });

  const disconnect = useMutation({
    mutationKey: SERVICE_OPERATION_KEY,
    mutationFn: (service: Service) => disconnectService(service.id),
    onSuccess: (_data, service) => toast(SERVICE_TOASTS.disconnected(service.name), 'success'),
    onError: (_error, service) => toast(SERVICE_TOASTS.disconnectFailed(service.name), 'error'),
    onSettled: (_data, _error, service) => refreshServices(queryClient, service.id),
  });

  const pending = useIsMutating({ mutationKey: SERVICE_OPERATION_KEY }) > 0;
  return { register, disconnect, pending };
}
