/**
 * The services API (spec section 7) as this feature uses it. Each operation is declared once here
 * with its path, types and query options, on the generated client (base URL, bearer token, errors).
 * When the generated SDK has these operations, only this file changes.
 */
import { queryOptions } from '@tanstack/react-query';
import { client } from '../../../client/client.gen';

export type ServiceStatus = 'ACTIVE' | 'INACTIVE';

export interface Service {
  id: number;
  name: string;
  description: string;
  logo: string;
  status: ServiceStatus;
  auth_schemes: string[];
}

export interface ServiceAction {
  id: number;
  display_name: string;
  name: string;
  description: string;
  logo: string;
  app_name: string;
}

export interface RegistrationResponse {
  redirectUrl?: string | null;
  connectionStatus?: string | null;
}

const dataOnly = { responseStyle: 'data', throwOnError: true } as const;

export const listServices = () =>
  client.get<{ 200: Service[] }, unknown, true, 'data'>({ ...dataOnly, url: '/api/v1/services/' });

export const listActiveServices = () =>
  client.get<{ 200: Service[] }, unknown, true, 'data'>({ ...dataOnly, url: '/api/v1/services/active' });

export const listServiceActions = (serviceId: number) =>
  client.get<{ 200: ServiceAction[] }, unknown, true, 'data'>({
    ...dataOnly,
    url: '/api/v1/services/{service_id}/actions',
    path: { service_id: serviceId },
  });

export const registerAuthService = (serviceId: number) =>
  client.post<{ 200: RegistrationResponse }, unknown, true, 'data'>({
    ...dataOnly,
    url: '/api/v1/services/{service_id}/register_auth_service',
    path: { service_id: serviceId },
  });

export const registerApiService = (serviceId: number, apiKey: string) =>
  client.post<{ 200: RegistrationResponse }, unknown, true, 'data'>({
    ...dataOnly,
    url: '/api/v1/services/{service_id}/register_api_service',
    path: { service_id: serviceId },
    body: { api_key: apiKey },
    headers: { 'Content-Type': 'application/json' },
  });

export const registerNoauthService = (serviceId: number) =>
  client.post<{ 200: RegistrationResponse }, unknown, true, 'data'>({
    ...dataOnly,
    url: '/api/v1/services/{service_id}/register_noauth_service',
    path: { service_id: serviceId },
  });

export const disconnectService = (serviceId: number) =>
  client.delete<{ 200: unknown; 204: void }, unknown, true, 'data'>({
    ...dataOnly,
    url: '/api/v1/services/{service_id}/disconnect_composio_service',
    path: { service_id: serviceId },
  });

export const serviceKeys = {
  all: ['services'] as const,
  list: () => [...serviceKeys.all, 'listServices'] as const,
  active: () => [...serviceKeys.all, 'listActiveServices'] as const,
  actions: (serviceId: number) => [...serviceKeys.all, 'listServiceActions', serviceId] as const,
};

export const listServicesOptions = () =>
  queryOptions({ queryKey: serviceKeys.list(), queryFn: listServices });

/** The active services and each service's actions are cached for the whole visit (spec section 7). */
export const listActiveServicesOptions = () =>
  queryOptions({ queryKey: serviceKeys.active(), queryFn: listActiveServices, staleTime: Infinity });

export const listServiceActionsOptions = (serviceId: number) =>
  queryOptions({
    queryKey: serviceKeys.actions(serviceId),
    queryFn: () => listServiceActions(serviceId),
    staleTime: Infinity,
  });

/** Every register and disconnect call shares this key, so any pending one disables all buttons. */
export const SERVICE_OPERATION_KEY = ['serviceOperation'] as const;
