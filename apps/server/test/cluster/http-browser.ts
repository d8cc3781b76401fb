import crypto from 'node:crypto';

/** One response, with the instance that answered (HAProxy's `x-backend`). */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  backend: string | null;
  json<T = Record<string, unknown>>(): T;
}

/**
 * A browser over real HTTP for the cluster tests: a cookie jar by path, manual redirects, and a
 * record of which instance answered each request, so a test can show a flow crossed instances.
 */
export class HttpBrowser {
  private cookies = new Map<string, { name: string; value: string; path: string }>();
  readonly hops: { method: string; path: string; status: number; backend: string | null }[] = [];

  constructor(readonly base: string) {}

  private cookieHeader(path: string) {
    return [...this.cookies.values()]
      .filter(
        (c) =>
          c.path === '/' || path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`),
      )
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private store(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const [name, ...valueParts] = pair!.split('=');
      const value = valueParts.join('=');
      const pathAttr = attributes.find((a) => a.toLowerCase().startsWith('path='));
      const cookiePath = pathAttr ? pathAttr.slice(5) : '/';
      const expired = attributes.some((a) => /^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now());
      const key = `${name}|${cookiePath}`;
      if (expired || value === '') this.cookies.delete(key);
      else this.cookies.set(key, { name: name!, value, path: cookiePath });
    }
  }

  async request(
    method: string,
    url: string,
    options: {
      form?: Record<string, string>;
      json?: unknown;
      headers?: Record<string, string>;
      pin?: string;
    } = {},
  ): Promise<Answer> {
    const target = new URL(url, this.base);
    const headers: Record<string, string> = { accept: 'text/html,application/json', ...options.headers };
    const cookie = this.cookieHeader(target.pathname);
    if (cookie) headers.cookie = cookie;
    if (options.pin) headers['x-pin-backend'] = options.pin;
    let body: string | undefined;
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    } else if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const res = await fetch(target, { method, headers, body, redirect: 'manual' });
    this.store(res.headers);
    const text = await res.text();
    const backend = res.headers.get('x-backend');
    this.hops.push({ method, path: target.pathname, status: res.status, backend });
    return { status: res.status, headers: res.headers, text, backend, json: () => JSON.parse(text) };
  }

  /** Follows redirects while they stay on the identity provider. */
  async follow(answer: Answer): Promise<Answer> {
    let current = answer;
    for (let hops = 0; hops < 10; hops += 1) {
      const location = current.headers.get('location');
      if (current.status < 300 || current.status >= 400 || !location) return current;
      const next = new URL(location, this.base);
      if (next.origin !== new URL(this.base).origin || !next.pathname.startsWith('/idp')) return current;
      current = await this.request('GET', next.href);
    }
    throw new Error('too many redirects');
  }
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  id_token: string;
}

/**
 * Sign-up at the built-in provider through the proxy, as the web app does it: the access code,
 * then authorization code + PKCE with the API audience. Returns the browser (its hops show which
 * instance served each step) and, unless `redeem` is false, the tokens; with `redeem: false` it
 * stops before the token request and returns the code and verifier instead.
 */
export async function signUp(
  base: string,
  account: { email: string; password?: string; name?: string; accessCode?: string },
): Promise<{ browser: HttpBrowser; code: string; verifier: string }> {
  const browser = new HttpBrowser(base);
  if (account.accessCode) {
    const gate = await browser.request('POST', '/backend/api/v1/public/beta-user-signin', {
      json: { password: account.accessCode },
    });
    if (gate.status !== 200) throw new Error(`access code refused: ${gate.status} ${gate.text}`);
  }
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  const authorize = new URL('/idp/auth', base);
  authorize.search = new URLSearchParams({
    client_id: 'cadre-web',
    redirect_uri: base,
    response_type: 'code',
    scope: 'openid profile email',
    state: crypto.randomBytes(8).toString('hex'),
    audience: `${base}/backend`,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  const start = await browser.request('GET', authorize.href);
  const uid = /\/idp\/interaction\/([^/?]+)/.exec(start.headers.get('location') ?? '')?.[1];
  if (!uid) throw new Error(`no interaction: ${start.status} ${start.text}`);
  const posted = await browser.request('POST', `/idp/interaction/${uid}/signup`, {
    form: {
      name: account.name ?? 'Cluster Person',
      email: account.email,
      password: account.password ?? 'correct horse battery',
    },
  });
  if (posted.status !== 303) throw new Error(`sign-up failed: ${posted.status} ${posted.text}`);
  const back = await browser.follow(posted);
  const code = new URL(back.headers.get('location') ?? '', base).searchParams.get('code');
  if (!code) throw new Error(`no code: ${back.status} ${back.headers.get('location')} ${back.text}`);
  return { browser, code, verifier };
}

export async function tokenRequest(
  base: string,
  form: Record<string, string>,
  pin?: string,
): Promise<{ status: number; body: Record<string, string>; backend: string | null }> {
  const res = await fetch(new URL('/idp/token', base), {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(pin ? { 'x-pin-backend': pin } : {}),
    },
    body: new URLSearchParams({ client_id: 'cadre-web', ...form }).toString(),
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, string>,
    backend: res.headers.get('x-backend'),
  };
}

export const redeemCode = (base: string, code: string, verifier: string, pin?: string) =>
  tokenRequest(
    base,
    { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: base },
    pin,
  );

/**
 * Signs in to the chat with an access token for one agent and returns what every cookie request of
 * the chat frame then carries: the session cookie, our origin and the CSRF header.
 */
export async function chatFrameHeaders(
  base: string,
  token: string,
  agentId: number,
  pin?: string,
): Promise<Record<string, string>> {
  const session = await fetch(new URL('/chainlit/auth/header', base), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'x-agent-id': String(agentId),
      ...(pin ? { 'x-pin-backend': pin } : {}),
    },
  });
  if (session.status !== 200) throw new Error(`chat sign-in: ${session.status} ${await session.text()}`);
  const cookie = session.headers
    .getSetCookie()
    .find((c) => c.startsWith('cadre_chat_session='))!
    .split(';')[0]!;
  return {
    cookie,
    origin: base,
    'x-requested-with': 'cadre-chat',
    'content-type': 'application/json',
  };
}
