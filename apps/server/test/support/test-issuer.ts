import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config.ts';
import type { TestApp } from './test-app.ts';

/**
 * A local OpenID Connect issuer for tests: serves `/.well-known/openid-configuration` and a JWKS on
 * 127.0.0.1, and mints tokens signed with its keys, exactly as an external issuer (Auth0,
 * Keycloak) would. Pass `issuer.env` to `createTestApp` so the app trusts it.
 */
export interface TokenOptions {
  /** Defaults to the issuer's URL. */
  issuer?: string;
  /** Defaults to the API audience the issuer was started with. */
  audience?: string | string[];
  /** Seconds from now; defaults to 300. Negative for an expired token. */
  expiresIn?: number;
  /** Seconds from now for `nbf`. */
  notBefore?: number;
  /** Seconds from now for `iat`; defaults to 0 (now). `null` leaves it out (access tokens only). */
  issuedAt?: number | null;
  /** Header `typ`; defaults to `at+jwt`. `null` leaves it out. */
  typ?: string | null;
  /** Overrides the header `kid`. */
  kid?: string;
  /** Extra header fields (jku, x5u...). */
  header?: Record<string, unknown>;
  /** Sign with the issuer's other key, which is not in its JWKS. */
  foreignKey?: boolean;
}

export interface TestIssuer {
  url: string;
  audience: string;
  env: { OIDC_ISSUER: string; OIDC_AUDIENCE: string };
  /** An access token for `claims.sub` (required) with `scope` `openid profile email` by default. */
  token(claims: JWTPayload & { sub: string }, options?: TokenOptions): Promise<string>;
  /**
   * A back-channel logout token (`typ` logout+jwt) for `options.audience` (the client id): a fresh
   * `jti`, the back-channel logout event, expiring in 2 minutes. A claim given as `undefined` is
   * left out; `expiresIn: null` leaves out `exp`.
   */
  logoutToken(
    claims: JWTPayload,
    options: Omit<TokenOptions, 'audience' | 'expiresIn'> & { audience: string; expiresIn?: number | null },
  ): Promise<string>;
  /** The public JWK the issuer publishes (for confusion attacks in tests). */
  publicJwk: JWK;
  /** How often the JWKS was fetched. */
  jwksFetches: number;
  close(): Promise<void>;
}

const DEFAULT_AUDIENCE = 'https://cadre.test/api';

export async function startTestIssuer(options: { audience?: string } = {}): Promise<TestIssuer> {
  const audience = options.audience ?? DEFAULT_AUDIENCE;
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const foreign = await generateKeyPair('RS256', { extractable: true });
  const kid = `test-${crypto.randomUUID()}`;
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };

  let url = '';
  const state = { jwksFetches: 0 };
  const server = http.createServer((req, res) => {
    if (req.url === '/.well-known/openid-configuration') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ issuer: `${url}/`, jwks_uri: `${url}/.well-known/jwks.json` }));
    } else if (req.url === '/.well-known/jwks.json') {
      state.jwksFetches += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [publicJwk] }));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Like Auth0, the issuer identifier ends with a slash.
  const issuerId = `${url}/`;

  const sign = (key: CryptoKey, claims: JWTPayload, o: TokenOptions) => {
    const now = Math.floor(Date.now() / 1000);
    const header = {
      alg: 'RS256',
      kid: o.kid ?? (o.foreignKey ? `foreign-${kid}` : kid),
      ...(o.typ === null ? {} : { typ: o.typ ?? 'at+jwt' }),
      ...o.header,
    };
    const jwt = new SignJWT({ scope: 'openid profile email', ...claims })
      .setProtectedHeader(header)
      .setIssuer(o.issuer ?? issuerId)
      .setAudience(o.audience ?? audience)
      .setExpirationTime(now + (o.expiresIn ?? 300));
    if (o.issuedAt !== null) jwt.setIssuedAt(now + (o.issuedAt ?? 0));
    if (o.notBefore !== undefined) jwt.setNotBefore(now + o.notBefore);
    return jwt.sign(key);
  };

  return {
    url: issuerId,
    audience,
    env: { OIDC_ISSUER: issuerId, OIDC_AUDIENCE: audience },
    publicJwk,
    get jwksFetches() {
      return state.jwksFetches;
    },
    token: (claims, o = {}) => sign(o.foreignKey ? foreign.privateKey : privateKey, claims, o),
    logoutToken: (claims, o) => {
      const now = Math.floor(Date.now() / 1000);
      const jwt = new SignJWT({
        jti: crypto.randomUUID(),
        events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
        ...claims,
      })
        .setProtectedHeader({
          alg: 'RS256',
          kid: o.kid ?? (o.foreignKey ? `foreign-${kid}` : kid),
          ...(o.typ === null ? {} : { typ: o.typ ?? 'logout+jwt' }),
        })
        .setIssuer(o.issuer ?? issuerId)
        .setAudience(o.audience)
        .setIssuedAt(now + (o.issuedAt ?? 0)); // a logout token always has one
      if (o.expiresIn !== null) jwt.setExpirationTime(now + (o.expiresIn ?? 120));
      return jwt.sign(o.foreignKey ? foreign.privateKey : privateKey);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** `Authorization` header for a token. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The beta access code the app accepts: the first configured one, or the one it generated. */
export async function accessCodeOf(app: FastifyInstance, config: Config): Promise<string> {
  const code = config.accessCodes[0] ?? (await app.generatedAccessCode());
  if (!code) throw new Error('the app has no access code');
  return code;
}

let addressSeq = 0;
/** A client address of its own, so the gate's per-address limit never couples two tests' browsers. */
export const freshAddress = () => {
  addressSeq += 1;
  return `10.77.${Math.floor(addressSeq / 250) % 250}.${(addressSeq % 250) + 1}`;
};

/**
 * Enters the access code on the web app's gate, as a browser does before signing in, and returns
 * the proof cookie it was given (`cadre_beta=...`, ready for a `cookie` header).
 */
export async function passBetaGate(app: FastifyInstance, config: Config, address = freshAddress()) {
  const res = await app.inject({
    method: 'POST',
    url: '/backend/api/v1/public/beta-user-signin',
    remoteAddress: address,
    payload: { password: await accessCodeOf(app, config) },
  });
  if (res.statusCode !== 200) throw new Error(`beta-user-signin answered ${res.statusCode} ${res.body}`);
  return String(res.headers['set-cookie']).split(';')[0]!;
}

/**
 * What the web app does right after sign-in in a browser that passed the gate: check-user with
 * the token and the proof cookie, which admits the user. Returns check-user's answer.
 */
export async function admit(t: TestApp, auth: { authorization: string }) {
  const cookie = await passBetaGate(t.app, t.config);
  return t.app.inject({
    method: 'POST',
    url: '/backend/api/v1/users/check-user',
    headers: { ...auth, cookie },
  });
}

/** Mints a token for `claims` and signs in with it, as the web app does on load; returns the header and user id. */
export async function signInAs(t: TestApp, issuer: TestIssuer, claims: JWTPayload & { sub: string }) {
  const auth = bearer(await issuer.token(claims));
  const me = await admit(t, auth);
  return { auth, id: me.json().id as number };
}
