import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient, createConfig } from '../client/client';
import { healthcheck } from '../client/sdk.gen';
import { API_VERSION, configureApiClient, XSRF_HEADER_NAME } from './api-client';
import { ApiError, CancelError, STATUS_LABELS } from './api-error';

/**
 * The generated client, configured as spec section 7 describes, against a fetch that records each
 * request and answers what the test says.
 */
function setup(answer: (request: Request) => Response | Promise<Response>, token?: string) {
  const requests: Request[] = [];
  const client = createClient(createConfig());
  configureApiClient({ baseUrl: 'https://app.example/backend/', getAccessToken: () => token }, client);
  client.setConfig({
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      requests.push(request);
      return answer(request);
    },
  });
  return { client, requests };
}

const json = (body: unknown, status = 200, statusText = 'OK') =>
  new Response(JSON.stringify(body), { status, statusText, headers: { 'content-type': 'application/json' } });

describe('API client', () => {
  beforeEach(() => {
    document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  });
  afterEach(() => vi.restoreAllMocks());

  it('reports API version 0.1.0 and has an empty base path until configured', () => {
    expect(API_VERSION).toBe('0.1.0');
    const fresh = createClient(createConfig());
    expect(fresh.getConfig().baseUrl ?? '').toBe('');
  });

  it('calls the configured base URL with credentials included and reads the JSON body', async () => {
    const { client, requests } = setup(() => json({ status: 'ok', database: 'ok' }));
    const body = await healthcheck({ client });
    expect(body).toEqual({ status: 'ok', database: 'ok' });
    expect(requests[0]!.url).toBe('https://app.example/backend/api/v1/public/health/healthcheck');
    expect(requests[0]!.credentials).toBe('include');
  });

  it('sends the bearer token on every call, and none when signed out', async () => {
    const withToken = setup(() => json({}), 'token-123');
    await healthcheck({ client: withToken.client });
    expect(withToken.requests[0]!.headers.get('authorization')).toBe('Bearer token-123');

    const signedOut = setup(() => json({}));
    await healthcheck({ client: signedOut.client });
    expect(signedOut.requests[0]!.headers.get('authorization')).toBeNull();
  });

  it('sends the XSRF-TOKEN cookie back as the X-XSRF-TOKEN header', async () => {
    document.cookie = 'XSRF-TOKEN=abc%20def';
    const { client, requests } = setup(() => json({}));
    await healthcheck({ client });
    expect(requests[0]!.headers.get(XSRF_HEADER_NAME)).toBe('abc def');
  });

  it('sends JSON bodies', async () => {
    const { client, requests } = setup(() => json({ ok: true }));
    await client.post({ url: '/api/v1/x', body: { name: 'Ada' }, responseStyle: 'data' });
    expect(requests[0]!.headers.get('content-type')).toBe('application/json');
    expect(await requests[0]!.text()).toBe('{"name":"Ada"}');
  });

  it('does not read a body from a 204', async () => {
    const { client } = setup(() => new Response(null, { status: 204 }));
    const jsonSpy = vi.spyOn(Response.prototype, 'json');
    await expect(client.delete({ url: '/api/v1/x', responseStyle: 'data' })).resolves.toBeNull();
    expect(jsonSpy).not.toHaveBeenCalled();
  });

  it('raises an ApiError with url, status, status text and body; 422 is a Validation Error', async () => {
    const detail = [{ loc: ['body', 'name'], msg: 'Required', type: 'invalid_type' }];
    const { client } = setup(() => json({ detail, code: 'validation_failed' }, 422, 'Unprocessable Entity'));
    const error = await healthcheck({ client }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: 'Validation Error',
      url: 'https://app.example/backend/api/v1/public/health/healthcheck',
      status: 422,
      statusText: 'Unprocessable Entity',
      body: { detail, code: 'validation_failed' },
      code: 'validation_failed',
    });
  });

  it("reads the API's error code from the body, and none from a body that is not one of its answers", async () => {
    const { client } = setup(() => json({ detail: 'Agent not found', code: 'not_found' }, 404, 'Not Found'));
    expect(((await healthcheck({ client }).catch((e: unknown) => e)) as ApiError).code).toBe('not_found');
    // A proxy's 404 page says nothing the screens may branch on.
    const proxy = setup(() => new Response('<h1>Not Found</h1>', { status: 404, statusText: 'Not Found' }));
    expect(
      ((await healthcheck({ client: proxy.client }).catch((e: unknown) => e)) as ApiError).code,
    ).toBeUndefined();
  });

  it('names standard statuses and gives other failures a generic error', async () => {
    for (const status of [400, 401, 403, 404, 500, 502, 503]) {
      const { client } = setup(() => json({ detail: 'x' }, status, 'Text'));
      const error = (await healthcheck({ client }).catch((e: unknown) => e)) as ApiError;
      expect(error.message).toBe(STATUS_LABELS[status]);
    }
    const { client } = setup(() => new Response('teapot', { status: 418, statusText: "I'm a teapot" }));
    const error = (await healthcheck({ client }).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(418);
    expect(error.message).toBe("Generic Error: status: 418; status text: I'm a teapot; body: teapot");
  });

  it("raises 'Request aborted' when the call is cancelled", async () => {
    const { client } = setup(
      (request) =>
        new Promise<Response>((_resolve, reject) => {
          const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
          if (request.signal.aborted) abort();
          request.signal.addEventListener('abort', abort);
        }),
    );
    const controller = new AbortController();
    const pending = healthcheck({ client, signal: controller.signal });
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelError);
    expect((error as Error).message).toBe('Request aborted');
  });

  it('runs request and response interceptors the app adds', async () => {
    const { client, requests } = setup(() => json({ n: 1 }));
    client.interceptors.request.use((request) => {
      request.headers.set('X-Trace', 't1');
      return request;
    });
    const seen: number[] = [];
    client.interceptors.response.use((response) => {
      seen.push(response.status);
      return response;
    });
    await healthcheck({ client });
    expect(requests[0]!.headers.get('x-trace')).toBe('t1');
    expect(seen).toEqual([200]);
  });
});
