/**
 * The services API (spec section 7) as this feature uses it: the generated SDK calls and their
 * generated query options, under the names the screens use. Paths and query keys are never retyped.
 */
import { idempotencyHeaders } from '@cadre/contract';
import type { QueryClient } from '@tanstack/react-query';
import {
  listActiveServicesOptions as generatedListActiveServicesOptions,
  listActiveServicesQueryKey,
  listServiceActionsOptions as generatedListServiceActionsOptions,
  listServiceActionsQueryKey,
  listServicesInfiniteQueryKey,
  listServicesOptions,
  listServicesQueryKey,
} from '../../../client/@tanstack/react-query.gen';
import * as sdk from '../../../client/sdk.gen';
import { LIST_PAGE_SIZE, pagedListOptions } from '../../../lib/paged-list';
import type {
  AddCustomMcpServerData,
  ListServiceActionsResponse,
  ListServicesResponse,
  RegisterAuthServiceResponse,
} from '../../../client/types.gen';

export type Service = ListServicesResponse[number];
export type ServiceAction = ListServiceActionsResponse[number];
/** What a registration answers; read defensively (spec section 4 lists missing fields as failures). */
export type RegistrationResponse = Partial<RegisterAuthServiceResponse>;
export type CustomMcpServer = Pick<
  AddCustomMcpServerData['body'],
  'name' | 'url' | 'header_name' | 'header_value'
>;

export const registerAuthService = (serviceId: number): Promise<RegistrationResponse> =>
  sdk.registerAuthService({ path: { service_id: serviceId } });
export const registerApiService = (serviceId: number, apiKey: string): Promise<RegistrationResponse> =>
  sdk.registerApiService({ path: { service_id: serviceId }, body: { api_key: apiKey } });
export const registerNoauthService = (serviceId: number): Promise<RegistrationResponse> =>
  sdk.registerNoauthService({ path: { service_id: serviceId } });
export const disconnectService = (serviceId: number) =>
  sdk.disconnectService({ path: { service_id: serviceId } });
/** Adds the server; one key per submission, so a retried request adds it once. */
export const addCustomMcpServer = (body: CustomMcpServer) =>
  sdk.addCustomMcpServer({ body, headers: idempotencyHeaders() });

export { listServicesOptions };

/** The services a page at a time, for the Services screen; `refreshServices` refreshes it too. */
export const servicePagesOptions = () =>
  pagedListOptions<Service, ReturnType<typeof listServicesInfiniteQueryKey>>(
    listServicesInfiniteQueryKey({ query: { limit: LIST_PAGE_SIZE } }),
    (options) => sdk.listServices(options),
  );

/**
 * After a service is connected, disconnected or added, the lists of services are out of date, and
 * so are the service's own actions (a connection can bring or drop them).
 */
export function refreshServices(queryClient: QueryClient, serviceId?: number) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: listServicesQueryKey() }),
    queryClient.invalidateQueries({ queryKey: listActiveServicesQueryKey() }),
    serviceId === undefined
      ? undefined
      : queryClient.invalidateQueries({
          queryKey: listServiceActionsQueryKey({ path: { service_id: serviceId } }),
        }),
  ]);
}

/** The active services and each service's actions are cached for the whole visit (spec section 7). */
export const listActiveServicesOptions = () => ({
  ...generatedListActiveServicesOptions(),
  staleTime: Infinity,
});

export const listServiceActionsOptions = (serviceId: number) => ({
  ...generatedListServiceActionsOptions({ path: { service_id: serviceId } }),
  staleTime: Infinity,
});

/** Every register and disconnect call shares this key, so any pending one disables all buttons. */
export const SERVICE_OPERATION_KEY = ['serviceOperation'] as const;
