import crypto from 'node:crypto';
import { safeFetch, type EgressPolicy } from './egress.ts';
import { ToolError, type Credentials } from './provider.ts';

/**
 * A generic OAuth2 client: authorization code with PKCE (S256) and `state`, code exchange and
 * refresh. The state and verifier handling (hash stored, single use, 10-minute expiry) lives in
 * the services module (`services/oauth-flow.ts`); tokens live only in the vault.
 */

export interface OAuth2ClientConfig {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  scopes: string[];
  /** How the client authenticates at the token endpoint (GitHub: post; most OIDC servers: basic). */
  tokenAuth: 'client_secret_post' | 'client_secret_basic';
  /** Egress policy for the token endpoint. */
  policy: EgressPolicy;
  /** Extra authorization parameters (e.g. `prompt`). */
  extraAuthorizeParams?: Record<string, string>;
}

export interface TokenSet extends Credentials {
  access_token: string;
  refresh_token?: string;
  token_type: string;
  scope?: string;
  /** Epoch milliseconds; absent when the token does not expire. */
  expires_at?: number;
}

export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;

/** A new state: 256 random bits, and the SHA-256 stored in its place. */
export function newState(): { state: string; hash: string } {
  const state = crypto.randomBytes(32).toString('base64url');
  return { state, hash: hashState(state) };
}

export const hashState = (state: string) => crypto.createHash('sha256').update(state, 'utf8').digest('hex');

export function newPkce(): { verifier: string; challenge: string } {
  const verifier = crypto.randomBytes(32).toString('base64url');
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(
  cfg: OAuth2ClientConfig,
  input: { state: string; codeChallenge: string; redirectUri: string },
): string {
  const url = new URL(cfg.authorizeUrl);
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: cfg.clientId,
    redirect_uri: input.redirectUri,
    state: input.state,
    code_challenge: input.codeChallenge,
    code_challenge_method: 'S256',
    ...(cfg.scopes.length ? { scope: cfg.scopes.join(' ') } : {}),
    ...cfg.extraAuthorizeParams,
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

async function tokenRequest(cfg: OAuth2ClientConfig, params: Record<string, string>): Promise<TokenSet> {
  const body = new URLSearchParams(params);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (cfg.tokenAuth === 'client_secret_basic') {
    const encode = (s: string) => encodeURIComponent(s);
    headers.authorization = `Basic ${Buffer.from(`${encode(cfg.clientId)}:${encode(cfg.clientSecret)}`).toString('base64')}`;
  } else {
    body.set('client_id', cfg.clientId);
    body.set('client_secret', cfg.clientSecret);
  }
  const res = await safeFetch(cfg.tokenUrl, { method: 'POST', headers, body: body.toString() }, cfg.policy);
  let data: Record<string, unknown>;
  try {
    data = res.json<Record<string, unknown>>();
  } catch {
    throw new ToolError('provider_error', `The token endpoint answered HTTP ${res.status} without JSON`);
  }
  // GitHub answers 200 with {error} for a bad code; others answer 400 {error}.
  if (!res.ok || typeof data.error === 'string' || typeof data.access_token !== 'string') {
    const error =
      typeof data.error === 'string'
        ? data.error.replace(/[^a-z_]/gi, '').slice(0, 60)
        : `HTTP ${res.status}`;
    throw new ToolError(
      error === 'invalid_grant' ? 'auth_expired' : 'provider_error',
      `The token request was refused (${error})`,
    );
  }
  const expiresIn = Number(data.expires_in);
  return {
    access_token: data.access_token,
    refresh_token: typeof data.refresh_token === 'string' ? data.refresh_token : undefined,
    token_type: typeof data.token_type === 'string' ? data.token_type : 'bearer',
    scope: typeof data.scope === 'string' ? data.scope : undefined,
    expires_at: Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 : undefined,
  };
}

export function exchangeCode(
  cfg: OAuth2ClientConfig,
  input: { code: string; codeVerifier: string; redirectUri: string },
): Promise<TokenSet> {
  return tokenRequest(cfg, {
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: input.redirectUri,
    code_verifier: input.codeVerifier,
  });
}

export async function refreshTokens(cfg: OAuth2ClientConfig, current: TokenSet): Promise<TokenSet> {
  if (!current.refresh_token) {
    throw new ToolError(
      'auth_expired',
      'The access token expired and cannot be refreshed; reconnect the service',
    );
  }
  const next = await tokenRequest(cfg, { grant_type: 'refresh_token', refresh_token: current.refresh_token });
  // Servers that do not rotate refresh tokens keep the old one valid.
  return { ...next, refresh_token: next.refresh_token ?? current.refresh_token };
}

/** Returns usable tokens, refreshing when they expire within a minute; `refreshed` says to store them. */
export async function freshTokens(
  cfg: OAuth2ClientConfig,
  credentials: Credentials | null,
  now = Date.now(),
): Promise<{ tokens: TokenSet; refreshed: boolean }> {
  if (!credentials || typeof credentials.access_token !== 'string') {
    throw new ToolError('auth_expired', 'The service is not connected; connect it on the Services page');
  }
  const tokens = credentials as TokenSet;
  if (tokens.expires_at !== undefined && tokens.expires_at - 60_000 <= now) {
    return { tokens: await refreshTokens(cfg, tokens), refreshed: true };
  }
  return { tokens, refreshed: false };
}
