import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { silentSignInUri } from '@cadre/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { kyselyAdapterFactory } from './adapter.ts';
import type { IdentityKeys } from './keys.ts';
import { answerOutagesWith503 } from './outage.ts';
import { ACCESS_TOKEN_TTL_SECONDS, WEB_SCOPES } from './token-settings.ts';
import { accountClaims, type AccountService } from './service.ts';
import { logoutPage, messagePage } from './views.ts';

/** Told the account's subject and the ended session's `sid` for our client, when it is known. */
export type SignOutHook = (subject: string, sid: string | undefined) => Promise<void>;

/**
 * The built-in OpenID Connect provider (oidc-provider 9): authorization code with PKCE S256 only,
 * exact redirect URIs, JWT access tokens for the API audience, rotating refresh tokens with reuse
 * detection, RP-initiated logout. Keys and all state live in the database, so any number of
 * instances behave as one provider. Made on the first request to /idp (provider.ts), so a start
 * loads none of oidc-provider and its Koa stack.
 */
export function buildProvider(
  { config, db }: { config: Config; db: Db },
  keys: IdentityKeys,
  accounts: AccountService,
  corsOrigins: ReadonlySet<string>,
  onSignOut: readonly SignOutHook[],
): Provider {
  const { issuer, clientId, audience, redirectUri, logoutRedirectUri } = config.auth;
  const configuration: Configuration = {
    adapter: kyselyAdapterFactory(db),
    jwks: { keys: keys.signing as NonNullable<Configuration['jwks']>['keys'] },
    cookies: { keys: keys.cookie },
    clients: [
      {
        client_id: clientId,
        client_name: 'Cadre',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        // Exact strings: oidc-provider compares redirect URIs without any normalisation. The
        // second is the web app's silent sign-in page (a reload signs in without leaving the page).
        redirect_uris: [redirectUri, silentSignInUri(redirectUri)],
        post_logout_redirect_uris: [logoutRedirectUri],
      },
    ],
    responseTypes: ['code'],
    // oidc-provider 9 supports only S256; PKCE is required for every client.
    pkce: { required: () => true },
    scopes: ['openid', 'profile', 'email', 'offline_access'],
    claims: { openid: ['sub'], profile: ['name', 'picture'], email: ['email', 'email_verified'] },
    // The web app reads the profile from the ID token (its access token is for the API only).
    conformIdTokenClaims: false,
    // The single-page app renews by refresh token; each use returns a new one and replaying a used
    // one revokes the whole grant (oidc-provider's reuse detection). Rotation never extends the
    // absolute lifetime of a public client's refresh token (the library's default TTL policy).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // Sign-out ends every token of the session, even one that asked for offline_access (A4).
    expiresWithSession: async () => true,
    // The access token names the provider session it was issued under (`sid`, the value an ID
    // token and a back-channel logout token carry for this client), so a chat session opened with
    // it ends with that session (A4). oidc-provider copies `sid` onto a code only for clients with
    // a back-channel logout URI, so it is read from the session, found by the uid every token of
    // a session keeps; a token whose session is gone gets none. `session_exp` is when that session
    // expires as the token is issued: a chat session opened with the token ends by then, since no
    // hook tells us when a provider session simply expires.
    extraTokenClaims: async (ctx, token) => {
      if (token.kind !== 'AccessToken') return undefined;
      const session = token.sessionUid
        ? await ctx.oidc.provider.Session.findByUid(token.sessionUid)
        : undefined;
      const sid = token.sid ?? (token.clientId ? session?.sidFor(token.clientId) : undefined);
      const claims = { ...(sid && { sid }), ...(session?.exp && { session_exp: session.exp }) };
      return Object.keys(claims).length > 0 ? claims : undefined;
    },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      Interaction: 60 * 60,
      Session: 14 * 24 * 60 * 60,
      Grant: 14 * 24 * 60 * 60,
      // 14 days from sign-in: a rotated refresh token inherits what is left of its parent's life.
      RefreshToken: (ctx, token) => {
        const rotated = ctx?.oidc.entities.RotatedRefreshToken;
        return rotated && token.kind === 'RefreshToken' ? rotated.remainingTTL : 14 * 24 * 60 * 60;
      },
    },
    features: {
      devInteractions: { enabled: false },
      // Not served under /idp (the pass-through knows no /request), so not advertised either.
      pushedAuthorizationRequests: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (resourceIndicator !== audience) throw new errors.InvalidTarget();
          return {
            scope: WEB_SCOPES,
            audience,
            accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.type = 'html';
          ctx.body = logoutPage(form, Boolean(ctx.oidc.params?.id_token_hint));
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = 'html';
          ctx.body = messagePage('Signed out', 'You have been signed out of Cadre. You can close this page.');
        },
      },
    },
    // The app's own origins may call the token endpoint from the browser (a separate dev server).
    clientBasedCORS: (_ctx, origin) => corsOrigins.has(origin),
    interactions: { url: (_ctx, interaction) => `/idp/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const account = await accounts.findBySubject(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => accountClaims(account, issuer) };
    },
    renderError: async (ctx: KoaContextWithOIDC, out) => {
      ctx.type = 'html';
      const description = out.error_description ?? out.error;
      ctx.body = messagePage('Sign-in problem', `${String(out.error)}: ${String(description)}`, {
        alert: true,
      });
    },
  };

  const provider = new Provider(issuer, configuration);
  // Behind a reverse proxy the scheme and host come from X-Forwarded-* only when it is trusted.
  provider.proxy = config.trustProxy;
  answerOutagesWith503(provider);
  // The end of a provider session is announced to the app directly, not by oidc-provider's
  // back-channel logout feature: that would have this process POST to its own URL over the
  // network, outside the egress guard (which refuses our own addresses) and through the proxy in
  // front of it. The only way a session ends early is end_session_confirm (sign-out, or a
  // different account signing in in the same browser); one that expires (14 days) has outlived
  // every chat session opened under it (8 hours) unless opened in its last hours.
  provider.use(async (ctx, next) => {
    await next();
    const session = ctx.oidc?.session;
    const subject = session?.accountId;
    if (ctx.oidc?.route === 'end_session_confirm' && ctx.status === 303 && subject) {
      // Still in memory after the session was destroyed; gone only when the browser signed out of
      // the client alone (no `logout=yes`), in which case the hook ends every session of the user.
      const sid = session.sidFor(clientId);
      for (const hook of onSignOut) await hook(subject, sid);
    }
  });
  return provider;
}
