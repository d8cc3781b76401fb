import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { SERVICE_PUBLIC_PATHS, type ApiKeyScope } from '@cadre/contract';
import type { Config } from '../config.ts';
import type { AuthUser } from '../kernel.ts';
import type {
  AccessProofs,
  ApiKeyGrant,
  ApiKeyVerifier,
  ResolvedUser,
  SignInDirectory,
} from './auth-ports.ts';
import { authorize, type Permission } from '../security/policy.ts';
import { HttpError } from './errors.ts';
import { API_PREFIX } from './openapi.ts';

/**
 * Token checks for the API (docs/security.md, "Token checks"). Every route under `/backend` needs
 * `Authorization: Bearer <access token>` unless it is on {@link PUBLIC_ROUTES} and marked
 * `config: { public: true }`. A route marked public but missing from the list stops the server
 * from starting, so the list below is the whole truth about what answers without a token.
 */
export const PUBLIC_ROUTES = [
  'GET /backend/api/v1/public/health/healthcheck',
  'GET /backend/api/v1/public/health/live',
  'GET /backend/api/v1/public/health/ready',
  'POST /backend/api/v1/public/beta-user-signin',
  // OpenID Connect Back-Channel Logout: the identity provider's signed logout token is the credential.
  'POST /backend/api/v1/auth/backchannel-logout',
  // Registered by the services module: the provider sends the browser back here after OAuth, and
  // posts signed webhook events here.
  `GET ${API_PREFIX}${SERVICE_PUBLIC_PATHS.composioAuthRedirect}`,
  `POST ${API_PREFIX}${SERVICE_PUBLIC_PATHS.composioWebhook}`,
  // The generic OAuth2 client's redirect URI: the browser arrives from the provider without our
  // token; the single-use `state` names the user.
  `GET ${API_PREFIX}${SERVICE_PUBLIC_PATHS.oauthCallback}`,
  // Built-in services' logos: the same public images for everyone, fetched by <img>.
  `GET ${API_PREFIX}${SERVICE_PUBLIC_PATHS.logo}`,
  // The OpenAPI document describes the API; it holds no data.
  'GET /backend/openapi.json',
  // Prometheus metrics: registered only with METRICS_SCRAPE_TOKEN, which the route itself checks.
  'GET /backend/metrics',
  // CORS preflights of the agent API: a browser sends them without credentials (agent-api/api-cors.ts).
  'OPTIONS /backend/openai/v1/models',
  'OPTIONS /backend/openai/v1/chat/completions',
  'OPTIONS /backend/openai/v1/responses',
  'OPTIONS /backend/mcp/:agent_id',
] as const;

/**
 * Routes that also answer a call signed per Standard Webhooks instead of carrying a token, marked
 * `config: { signedCalls: true }`: such a call (no `Authorization`, a `webhook-signature`) skips
 * the token check, and the route verifies the signature before it reads anything else, refusing
 * the call with 401 otherwise. A route marked but missing here stops the server from starting.
 */
export const SIGNED_ROUTES = ['POST /backend/api/v1/agents/:agent_id/triggers/:trigger_id'] as const;

/** A call that authenticates by its Standard Webhooks signature rather than a token. */
export const isSignedCall = (request: FastifyRequest) =>
  request.routeOptions.config.signedCalls === true &&
  request.headers.authorization === undefined &&
  request.headers['webhook-signature'] !== undefined;

/** Signature algorithms an access token may use: asymmetric only, never `none` or HMAC. */
export const ACCESS_TOKEN_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];
const CLOCK_TOLERANCE_SECONDS = 30;
/** Verified access tokens kept at most (see `verifyCached`); the oldest makes room for a new one. */
export const VERIFIED_TOKENS_MAX = 10_000;
/** `typ` values of access tokens (RFC 9068 and common issuers); ID tokens are refused. */
const ACCESS_TOKEN_TYPES = new Set(['jwt', 'at+jwt', 'application/at+jwt']);

export const MOCK_USER_IDENTITY = {
  issuer: 'urn:cadre:mock',
  subject: 'mock-user',
  name: 'Mock User',
  email: 'mock@cadre.local',
  picture: null,
} as const;

/** Checks an API access token outside an API route (the chat module accepts the same tokens). */
export interface ApiTokenVerifier {
  /**
   * The user the token belongs to, or null when it is not a valid access token. An API key counts
   * only with the `chat` scope and, when it is limited to agents, for one of them (`agentId`).
   * `sid`: the identity provider session the token was issued under, when it names one;
   * `sessionExpiresAt`: when that session expires (ms), when the token says (the built-in provider).
   */
  userForToken(
    token: string,
    agentId?: number,
  ): Promise<(AuthUser & { sid?: string; sessionExpiresAt?: number }) | null>;
}

export interface RouteEntry {
  method: string;
  url: string;
  public: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Marks a route that answers without a token; everything else requires one. */
    public?: boolean;
    /**
     * The scope that lets an API key call this route (any one of a list); without one, only a
     * sign-in token can.
     */
    apiKeyScope?: ApiKeyScope | readonly ApiKeyScope[];
    /** Also answers a Standard Webhooks signed call without a token; see SIGNED_ROUTES. */
    signedCalls?: boolean;
    /**
     * What the caller's role must grant (security/policy.ts); without one, every role may call
     * the route. Checked right after the token, before the body is read.
     */
    permission?: Permission;
  }
  interface FastifyRequest {
    /** The signed-in caller; set on every route that is not public. */
    user: AuthUser;
    /** The verified access token's claims (the mock user's claims with DISABLE_AUTH). */
    tokenClaims: JWTPayload;
    /** The API key the caller used, with its limits; null for a sign-in token. */
    apiKey: ApiKeyGrant | null;
  }
  interface FastifyInstance {
    /** Every route registered under `/backend`, with whether it answers without a token. */
    routeInventory: RouteEntry[];
    /** Verifies API access tokens for modules outside `/backend` (the chat service). */
    apiTokens: ApiTokenVerifier;
  }
}

const unauthenticated = () =>
  new HttpError('unauthorized', 'Not authenticated', { 'www-authenticate': 'Bearer' });

/** The API's answer to every request of an account an admin disabled. */
export const DISABLED_DETAIL =
  'This account has been disabled by an administrator: ask them to enable it again';
const accountDisabled = () => new HttpError('account_disabled', DISABLED_DETAIL);

/** The API's answer to a signed-in user who never entered the beta access code. */
export const NOT_ADMITTED_DETAIL =
  'This account has not passed the beta access-code gate: enter the access code on Cadre’s start page, then sign in again';

class TokenRefused extends Error {}

/**
 * Reads the issuer's discovery document for its `jwks_uri` and verifies with jose's remote key
 * set, which caches keys and refetches once when a token names an unknown `kid`. Discovery runs on
 * the first token, so a server whose issuer is briefly unreachable still starts.
 */
export function createRemoteKeySource(issuer: string): JWTVerifyGetKey {
  const base = issuer.replace(/\/+$/, '');
  let keySet: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const discover = async () => {
    const res = await fetch(`${base}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(5_000),
      redirect: 'error',
    });
    if (!res.ok) throw new Error(`OIDC discovery answered ${res.status}`);
    const body = (await res.json()) as { jwks_uri?: unknown };
    if (typeof body.jwks_uri !== 'string') throw new Error('OIDC discovery has no jwks_uri');
    const jwksUri = new URL(body.jwks_uri);
    // Keys come over TLS, unless the issuer itself is plain HTTP (a local or test issuer).
    if (jwksUri.protocol !== 'https:' && new URL(base).protocol === 'https:') {
      throw new Error('jwks_uri must use https');
    }
    return createRemoteJWKSet(jwksUri, { timeoutDuration: 5_000 });
  };
  return async (header, token) => {
    keySet ??= discover();
    let jwks: ReturnType<typeof createRemoteJWKSet>;
    try {
      jwks = await keySet;
    } catch (err) {
      keySet = undefined; // try discovery again on the next token
      throw err;
    }
    return jwks(header, token);
  };
}

/** Verifies an access token and returns its claims; throws on anything that is not one. */
export async function verifyAccessToken(
  token: string,
  keys: JWTVerifyGetKey,
  auth: { issuer: string; audience: string },
): Promise<JWTPayload & { iss: string; sub: string }> {
  const { payload, protectedHeader } = await jwtVerify(token, keys, {
    issuer: auth.issuer,
    audience: auth.audience,
    algorithms: ACCESS_TOKEN_ALGORITHMS,
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
    requiredClaims: ['iss', 'sub', 'exp'],
  });
  // jose checks `iat` only against a maximum age; a token claiming to be issued later than now
  // (beyond the same leeway as exp/nbf) was not issued by a sane issuer.
  if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) {
    throw new TokenRefused('token issued in the future');
  }
  const typ = protectedHeader.typ;
  if (typ !== undefined && !ACCESS_TOKEN_TYPES.has(typ.toLowerCase())) {
    throw new TokenRefused(`token type ${typ} is not an access token`);
  }
  // Access tokens carry the granted scopes; ID tokens do not.
  if (typeof payload.scope !== 'string') throw new TokenRefused('token has no scope (an ID token?)');
  if (!payload.sub || payload.sub.length > 255)
    throw new TokenRefused('token subject is missing or too long');
  return payload as JWTPayload & { iss: string; sub: string };
}

/** The token of an `Authorization: Bearer <token>` header (the API's and the chat's copilot tokens). */
export const bearer = (request: FastifyRequest): string | undefined => {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header);
  return match?.[1];
};

/**
 * Whether an API key's agent limit lets its holder reach the agent: always without a key (a sign-in
 * token) or with a key for all agents; a limited key never reaches an unnamed agent.
 */
export const keyAllows = (grant: ApiKeyGrant | null | undefined, agentId: number | undefined): boolean =>
  !grant?.agentIds || (agentId !== undefined && grant.agentIds.includes(agentId));

const stringClaim = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The caller as routes see it: what sign-in needed to know (gate, disabled) is left out. */
const withoutSignInState = ({ admitted: _admitted, disabled: _disabled, ...user }: ResolvedUser): AuthUser =>
  user;

/**
 * Installs the token check on the root instance, before any module registers routes: an
 * `onRoute` hook puts it first in the `onRequest` hooks of every private route under `/backend`
 * (so it runs before the body is read) and records the route inventory the A1 test walks.
 */
export function registerAuth(
  app: FastifyInstance,
  options: {
    config: Config;
    users: SignInDirectory;
    gate: AccessProofs;
    apiKeys?: ApiKeyVerifier;
    keys?: JWTVerifyGetKey;
  },
): ApiTokenVerifier {
  const { config, users, gate, apiKeys } = options;
  const publicRoutes = new Set<string>(PUBLIC_ROUTES);
  const signedRoutes = new Set<string>(SIGNED_ROUTES);
  const inventory: RouteEntry[] = [];
  app.decorate('routeInventory', inventory);
  app.decorateRequest('user', null as unknown as AuthUser);
  app.decorateRequest('tokenClaims', null as unknown as JWTPayload);
  app.decorateRequest('apiKey', null);

  let keys = options.keys;
  const keySource = () => (keys ??= createRemoteKeySource(config.auth.issuer));
  const auth = { issuer: config.auth.issuer, audience: config.auth.audience };

  /**
   * Verified tokens, kept until they expire so a client's repeated calls skip the signature check
   * (the largest per-request cost). Only tokens that passed every check get in; bounded in size.
   */
  const verified = new Map<
    string,
    { claims: Awaited<ReturnType<typeof verifyAccessToken>>; until: number }
  >();
  const verifyCached = async (token: string) => {
    const hit = verified.get(token);
    if (hit && hit.until > Date.now()) return hit.claims;
    if (hit) verified.delete(token);
    const claims = await verifyAccessToken(token, keySource(), auth);
    if (verified.size >= VERIFIED_TOKENS_MAX) verified.delete(verified.keys().next().value as string);
    verified.set(token, { claims, until: (claims.exp ?? 0) * 1000 });
    return claims;
  };

  /**
   * The beta gate on the server: a user who never passed it is admitted by a request carrying a
   * valid proof (the web app's check-user right after sign-in sends the cookie), and refused
   * otherwise. The mock user of DISABLE_AUTH has no gate.
   */
  const admitted = async (user: ResolvedUser, cookieHeader: string | undefined) => {
    if (!gate.enabled || user.admitted) return true;
    if (!gate.hasProof(cookieHeader)) return false;
    await users.admit(user);
    return true;
  };

  /** The route's permission, asked of the policy once the caller is known. */
  const permitted = (request: FastifyRequest) => {
    const permission = request.routeOptions.config.permission;
    if (permission) authorize(request.user, permission);
  };

  const authenticate: onRequestAsyncHookHandler = async (request) => {
    await identify(request);
    if (!isSignedCall(request)) permitted(request);
  };

  const identify = async (request: FastifyRequest) => {
    // The route verifies the signature itself (it needs the raw body, read after this hook).
    if (isSignedCall(request)) return;
    if (config.auth.disabled) {
      request.user = withoutSignInState(await users.resolve(MOCK_USER_IDENTITY));
      request.tokenClaims = {
        iss: MOCK_USER_IDENTITY.issuer,
        sub: MOCK_USER_IDENTITY.subject,
        name: MOCK_USER_IDENTITY.name,
        email: MOCK_USER_IDENTITY.email,
      };
      return;
    }
    const token = bearer(request);
    if (!token) throw unauthenticated();
    if (apiKeys?.isApiKey(token)) {
      const grant = await apiKeys.verify(token);
      if (!grant) {
        request.log.info({ reason: 'unknown, revoked or expired API key' }, 'access token refused');
        throw unauthenticated();
      }
      const scope = request.routeOptions.config.apiKeyScope;
      if (!scope)
        throw new HttpError('forbidden', 'API keys cannot call this route: it needs a sign-in token');
      const accepted: readonly ApiKeyScope[] = typeof scope === 'string' ? [scope] : scope;
      if (!accepted.some((s) => grant.scopes.includes(s))) {
        throw new HttpError('forbidden', `This API key lacks the scope ${accepted.join(' or ')}`);
      }
      request.apiKey = grant;
      request.user = grant.user;
      request.tokenClaims = { iss: grant.user.issuer, sub: grant.user.subject };
      return;
    }
    let claims: Awaited<ReturnType<typeof verifyAccessToken>>;
    try {
      claims = await verifyCached(token);
    } catch (err) {
      // A security event (ASVS 16.3): the reason, never the token.
      request.log.info({ reason: err instanceof Error ? err.message : String(err) }, 'access token refused');
      throw unauthenticated();
    }
    request.tokenClaims = claims;
    const user = await users.forToken(
      {
        issuer: claims.iss,
        subject: claims.sub,
        email: stringClaim(claims.email),
        name: stringClaim(claims.name),
        picture: stringClaim(claims.picture),
      },
      claims.iat,
    );
    if (!user) {
      request.log.info(
        { reason: 'the account was deleted after the token was issued' },
        'access token refused',
      );
      throw unauthenticated();
    }
    if (user.disabled) {
      request.log.info({ userId: user.id }, 'user refused: the account is disabled');
      throw accountDisabled();
    }
    if (!(await admitted(user, request.headers.cookie))) {
      request.log.info({ userId: user.id }, 'user refused: never passed the access-code gate');
      throw new HttpError('forbidden', NOT_ADMITTED_DETAIL);
    }
    request.user = withoutSignInState(user);
  };

  const verifier: ApiTokenVerifier = {
    async userForToken(token, agentId) {
      if (config.auth.disabled) return withoutSignInState(await users.resolve(MOCK_USER_IDENTITY));
      if (apiKeys?.isApiKey(token)) {
        const grant = await apiKeys.verify(token);
        if (!grant?.scopes.includes('chat')) return null;
        return keyAllows(grant, agentId) ? grant.user : null;
      }
      try {
        const claims = await verifyCached(token);
        const found = await users.forToken({ issuer: claims.iss, subject: claims.sub }, claims.iat);
        if (!found || found.disabled || (!found.admitted && gate.enabled)) return null;
        const user = withoutSignInState(found);
        const sid = stringClaim(claims.sid);
        const sessionExp = claims.session_exp;
        return {
          ...user,
          ...(sid && sid.length <= 255 && { sid }),
          ...(typeof sessionExp === 'number' &&
            Number.isFinite(sessionExp) && { sessionExpiresAt: sessionExp * 1000 }),
        };
      } catch {
        return null;
      }
    },
  };

  app.addHook('onRoute', (route) => {
    if (route.url !== API_PREFIX && !route.url.startsWith(`${API_PREFIX}/`)) return;
    const methods = [route.method].flat().map((m) => m.toUpperCase());
    const isPublic = route.config?.public === true;
    for (const method of methods) {
      inventory.push({ method, url: route.url, public: isPublic });
      const key = `${method === 'HEAD' ? 'GET' : method} ${route.url}`;
      if (isPublic && !publicRoutes.has(key)) {
        throw new Error(`${key} is marked public but is not in PUBLIC_ROUTES (src/http/auth.ts)`);
      }
      if (route.config?.signedCalls === true && !signedRoutes.has(key)) {
        throw new Error(`${key} takes signed calls but is not in SIGNED_ROUTES (src/http/auth.ts)`);
      }
    }
    if (isPublic) return;
    const existing = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [authenticate, ...existing];
  });
  return verifier;
}
