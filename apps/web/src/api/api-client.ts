import type { Client } from '../client/client';
import { client as generatedClient } from '../client/client.gen';
import { ApiError, CancelError } from './api-error';

/** The API version the client reports (spec section 7). */
export const API_VERSION = '0.1.0';
export const XSRF_COOKIE_NAME = 'XSRF-TOKEN';
export const XSRF_HEADER_NAME = 'X-XSRF-TOKEN';

export interface ApiClientSettings {
  /** The runtime configuration's `apiUrl`; the generated paths are relative to it. */
  baseUrl: string;
  /** Returns the current access token, or undefined when signed out (no header is sent). */
  getAccessToken: () => string | undefined | Promise<string | undefined>;
}

function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const prefix = `${name}=`;
  const found = document.cookie.split('; ').find((part) => part.startsWith(prefix));
  return found ? decodeURIComponent(found.slice(prefix.length)) : undefined;
}

const isAbort = (error: unknown) =>
  error instanceof DOMException
    ? error.name === 'AbortError'
    : (error as { name?: string } | null)?.name === 'AbortError';

/**
 * Configures the generated client as spec section 7 describes: base path from the runtime
 * configuration (empty until then), credentials included, JSON bodies, the bearer token and the
 * XSRF header on every call, failures raised as `ApiError` and cancellation as `CancelError`.
 * Interceptors are the generated client's own (`client.interceptors.request/response/error`).
 */
export function configureApiClient(settings: ApiClientSettings, client: Client = generatedClient) {
  client.setConfig({
    baseUrl: settings.baseUrl.replace(/\/+$/, ''),
    credentials: 'include',
    throwOnError: true,
    headers: { Accept: 'application/json' },
  });

  // Configuring again (a new token source, a test) replaces our interceptors instead of stacking.
  client.interceptors.request.clear();
  client.interceptors.error.clear();
  client.interceptors.request.use(async (request) => {
    const token = await settings.getAccessToken();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    const xsrf = readCookie(XSRF_COOKIE_NAME);
    if (xsrf) request.headers.set(XSRF_HEADER_NAME, xsrf);
    return request;
  });

  client.interceptors.error.use(async (error, response, request) => {
    if (!response) return isAbort(error) ? new CancelError() : error;
    return new ApiError({
      url: request.url,
      status: response.status,
      statusText: response.statusText,
      body: error,
      retryAfter: response.headers.get('retry-after'),
    });
  });
  return client;
}
