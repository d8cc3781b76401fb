import { configureApiClient } from '../api/api-client';
import { client } from '../client/client.gen';

/** Where the fake API answers, as the runtime configuration's apiUrl. */
export const API_URL = 'http://app.test/backend';
export const TEST_TOKEN = 'test-access-token';

/** What the app sent, as the API would see it. */
export interface ApiRequest {
  method: string;
  /** The path below the API's base, e.g. `/api/v1/agents/`. */
  path: string;
  /** The values of `:name` segments of the route that answered. */
  params: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
}

/** The signed-in account of the tests, a builder (as every account of a single-person install). */
export const BUILDER_PROFILE = {
  id: 1,
  issuer: 'https://issuer.test/',
  subject: 'test-user',
  email: 'test@example.com',
  name: 'Test User',
  picture: null,
  role: 'builder',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
} as const;

export type ApiHandler = (request: ApiRequest) => Response | Promise<Response>;

export const json = (body: unknown, status = 200) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/**
 * An answer the test releases later (`release(response)`), to look at a screen while it loads.
 * Every request that waited gets its own copy: a body can be read only once.
 */
export function held() {
  let release!: (response: Response) => void;
  const answer = new Promise<Response>((resolve) => (release = resolve));
  return { handler: () => answer.then((response) => response.clone()), release };
}

function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i]!.startsWith(':')) params[want[i]!.slice(1)] = decodeURIComponent(got[i]!);
    else if (want[i] !== got[i]) return undefined;
  }
  return params;
}

/**
 * Answers the generated API client's requests at the fetch level, like the server would, and
 * records each one. Routes are `'METHOD /path'` with `:name` segments, e.g.
 * `'PATCH /api/v1/agents/:agent_id'`; a request no route answers gets a 404 (and shows up in
 * `requests`). Routes can be added or replaced during a test with `answer`.
 */
export function installFakeApi(routes: Record<string, ApiHandler> = {}) {
  // Every screen asks who is signed in; a builder unless the test says otherwise.
  const table: Record<string, ApiHandler> = {
    'GET /api/v1/users/me': () => json(BUILDER_PROFILE),
    ...routes,
  };
  const requests: ApiRequest[] = [];
  configureApiClient({ baseUrl: API_URL, getAccessToken: () => TEST_TOKEN });
  client.setConfig({
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const url = new URL(request.url);
      const text = await request.text();
      const path = url.pathname.slice(new URL(API_URL).pathname.length);
      const recorded: ApiRequest = {
        method: request.method,
        path: `${path}${url.search}`,
        params: {},
        headers: Object.fromEntries(request.headers.entries()),
        // A JSON body parsed; anything else (a multipart upload, a zip) as the text the server would read.
        body: text
          ? /json/.test(request.headers.get('content-type') ?? '')
            ? (JSON.parse(text) as unknown)
            : text
          : undefined,
      };
      requests.push(recorded);
      for (const [route, handler] of Object.entries(table)) {
        const [method, pattern] = route.split(' ') as [string, string];
        const params = method === request.method ? match(pattern, path) : undefined;
        if (params) return handler({ ...recorded, params });
      }
      return json({ detail: 'Not Found', code: 'not_found' }, 404);
    },
  });
  return {
    requests,
    /** The requests made to one route, e.g. `sent('POST /api/v1/agents/')`. */
    sent: (route: string) => {
      const [method, pattern] = route.split(' ') as [string, string];
      return requests.filter((r) => r.method === method && match(pattern, r.path.split('?')[0]!));
    },
    answer: (route: string, handler: ApiHandler) => {
      table[route] = handler;
    },
  };
}

/**
 * A list route answering like the API's paged lists: the whole list without `?limit=`, else
 * `limit` items after `cursor` and a `Link` to the next page when the page is full. The cursor is
 * an offset here: the app passes on the one the `Link` names, whatever it means.
 */
export function pagedList(items: () => unknown[]): ApiHandler {
  return (request) => {
    const url = new URL(request.path, 'http://api.invalid');
    const all = items();
    if (!url.searchParams.has('limit')) return json(all);
    const limit = Number(url.searchParams.get('limit'));
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const page = all.slice(start, start + limit);
    const response = json(page);
    if (page.length === limit)
      response.headers.set('link', `<${url.pathname}?limit=${limit}&cursor=${start + limit}>; rel="next"`);
    return response;
  };
}
