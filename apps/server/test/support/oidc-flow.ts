import crypto from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Config } from '../../src/config.ts';
import { accessCodeOf, freshAddress } from './test-issuer.ts';

/** A minimal browser for driving the built-in provider with `inject`: cookies by path, redirects. */
export class Browser {
  private cookies = new Map<string, { name: string; value: string; path: string }>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly host: string,
    private readonly address = '127.0.0.1',
  ) {}

  /** The `cookie` header this browser sends to `path`. */
  cookieHeader(path: string) {
    return [...this.cookies.values()]
      .filter(
        (c) =>
          path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) || c.path === '/',
      )
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private store(response: LightMyRequestResponse) {
    const raw = response.headers['set-cookie'];
    for (const line of raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const [name, ...valueParts] = pair!.split('=');
      const value = valueParts.join('=');
      const pathAttr = attributes.find((a) => a.toLowerCase().startsWith('path='));
      const path = pathAttr ? pathAttr.slice(5) : '/';
      const expired = attributes.some((a) => /^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now());
      const key = `${name}|${path}`;
      if (expired || value === '') this.cookies.delete(key);
      else this.cookies.set(key, { name: name!, value, path });
    }
  }

  /** Enters the beta access code on the web app's gate, keeping the proof cookie it is given. */
  async enterAccessCode(code: string): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method: 'POST',
      url: '/backend/api/v1/public/beta-user-signin',
      remoteAddress: this.address,
      headers: { host: this.host, cookie: this.cookieHeader('/backend/api/v1/public/beta-user-signin') },
      payload: { password: code },
    });
    this.store(response);
    return response;
  }

  async request(
    method: 'GET' | 'POST',
    url: string,
    form?: Record<string, string>,
  ): Promise<LightMyRequestResponse> {
    const target = new URL(url, `http://${this.host}`);
    const path = `${target.pathname}${target.search}`;
    const response = await this.app.inject({
      method,
      url: path,
      remoteAddress: this.address,
      headers: {
        host: this.host,
        cookie: this.cookieHeader(target.pathname),
        accept: 'text/html',
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      payload: form ? new URLSearchParams(form).toString() : undefined,
    });
    this.store(response);
    return response;
  }

  /** Follows redirects inside the app until one leaves `/idp` (the redirect back to the app). */
  async follow(response: LightMyRequestResponse): Promise<LightMyRequestResponse> {
    let current = response;
    for (let hops = 0; hops < 10; hops += 1) {
      const location = current.headers.location;
      if (current.statusCode < 300 || current.statusCode >= 400 || typeof location !== 'string')
        return current;
      const next = new URL(location, `http://${this.host}`);
      if (next.host !== this.host || !next.pathname.startsWith('/idp')) return current;
      current = await this.request('GET', next.href);
    }
    throw new Error('too many redirects');
  }
}

export function pkcePair() {
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

export function authorizeUrl(config: Config, overrides: Record<string, string | undefined> = {}) {
  const params: Record<string, string | undefined> = {
    client_id: config.auth.clientId,
    redirect_uri: config.auth.redirectUri,
    response_type: 'code',
    scope: 'openid profile email',
    state: crypto.randomBytes(8).toString('hex'),
    audience: config.auth.audience,
    ...overrides,
  };
  const query = new URLSearchParams(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return `/idp/auth?${query.toString()}`;
}

export const uidFrom = (location: string) => /\/idp\/interaction\/([^/?]+)/.exec(location)?.[1] ?? '';

export interface SignedIn {
  code: string;
  verifier: string;
  browser: Browser;
}

/** Starts an authorization request and signs up (or in) through the interaction forms. */
export async function authorize(
  app: FastifyInstance,
  config: Config,
  account: { email: string; password: string; name?: string },
  options: { signUp?: boolean; browser?: Browser; params?: Record<string, string> } = {},
): Promise<SignedIn> {
  const host = new URL(config.publicUrl).host;
  const browser = options.browser ?? new Browser(app, host, freshAddress());
  // A new visitor enters the access code in the web app before signing up, as the e2e flow does.
  if (options.signUp) {
    const gate = await browser.enterAccessCode(await accessCodeOf(app, config));
    if (gate.statusCode !== 200) throw new Error(`access code refused: ${gate.statusCode} ${gate.body}`);
  }
  const { verifier, challenge } = pkcePair();
  const start = await browser.request(
    'GET',
    authorizeUrl(config, {
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...options.params,
    }),
  );
  let response = start;
  const location = String(start.headers.location ?? '');
  if (location.includes('/idp/interaction/')) {
    const uid = uidFrom(location);
    const posted = options.signUp
      ? await browser.request('POST', `/idp/interaction/${uid}/signup`, {
          name: account.name ?? 'Test Person',
          email: account.email,
          password: account.password,
        })
      : await browser.request('POST', `/idp/interaction/${uid}/login`, {
          email: account.email,
          password: account.password,
        });
    if (posted.statusCode !== 303) throw new Error(`sign-in failed: ${posted.statusCode} ${posted.body}`);
    response = posted;
  }
  const back = await browser.follow(response);
  const callback = new URL(String(back.headers.location), `http://${host}`);
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code in ${callback.href}: ${back.statusCode} ${back.body}`);
  return { code, verifier, browser };
}

export async function tokenRequest(app: FastifyInstance, config: Config, form: Record<string, string>) {
  const response = await app.inject({
    method: 'POST',
    url: '/idp/token',
    headers: { host: new URL(config.publicUrl).host, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ client_id: config.auth.clientId, ...form }).toString(),
  });
  return { status: response.statusCode, body: response.json() as Record<string, string> };
}

export async function exchangeCode(app: FastifyInstance, config: Config, signedIn: SignedIn) {
  return tokenRequest(app, config, {
    grant_type: 'authorization_code',
    code: signedIn.code,
    code_verifier: signedIn.verifier,
    redirect_uri: config.auth.redirectUri,
  });
}

/**
 * Signs up at the built-in provider and signs in to the app, as the web app does: the code is
 * exchanged for tokens and check-user runs with the access token. `browser` keeps the provider's
 * session cookie.
 */
export async function signUpAndSignIn(
  app: FastifyInstance,
  config: Config,
  account: { email: string; password: string; name: string },
) {
  const signedIn = await authorize(app, config, account, { signUp: true });
  const { status, body } = await exchangeCode(app, config, signedIn);
  if (status !== 200) throw new Error(`code exchange answered ${status} ${JSON.stringify(body)}`);
  const auth = { authorization: `Bearer ${body.access_token}` };
  const me = await app.inject({ method: 'POST', url: '/backend/api/v1/users/check-user', headers: auth });
  const { id, subject } = me.json<{ id: number; subject: string }>();
  return {
    auth,
    id,
    subject,
    idToken: body.id_token!,
    refreshToken: body.refresh_token!,
    browser: signedIn.browser,
  };
}
