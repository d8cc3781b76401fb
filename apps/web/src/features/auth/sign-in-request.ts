import {
  InMemoryWebStorage,
  type OidcClient,
  WebStorageStateStore,
  type UserManagerSettings,
} from 'oidc-client-ts';
import { silentSignInUri, type RuntimeConfig } from '@cadre/contract';
import { safeReturnPath } from './return-to';

// Everything here needs only oidc-client-ts, not React: main.tsx sends a signed-out visit to the
// provider with it before the app is loaded (see sign-in-first.ts).

export const SIGN_IN_SCOPE = 'openid profile email';

/** The sign-in client's settings, built only from the runtime configuration (spec section 3). */
export function userManagerSettings(config: RuntimeConfig): UserManagerSettings {
  return {
    authority: config.auth0Domain,
    client_id: config.auth0ClientId,
    redirect_uri: config.auth0RedirectUri,
    post_logout_redirect_uri: config.auth0LogoutRedirect,
    response_type: 'code',
    scope: SIGN_IN_SCOPE,
    // Auth0 names the API `audience`; the built-in provider reads it as the standard `resource`.
    extraQueryParams: { audience: config.auth0Audience },
    // Tokens live in memory only; a reload signs in again through the provider's session.
    userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
    // The PKCE verifier and state of a sign-in in progress outlive the trip to the provider.
    stateStore: new WebStorageStateStore({ store: window.localStorage }),
    automaticSilentRenew: true,
    // After a reload, a hidden frame asks the provider (prompt=none) while its session lives.
    silent_redirect_uri: silentSignInUri(config.auth0RedirectUri),
    silentRequestTimeoutInSeconds: 5,
    // The profile comes from the ID token; the access token is for the API, not /userinfo.
    loadUserInfo: false,
  };
}

/**
 * The provider's sign-in address, built as signinRedirect would without navigating; coming back
 * lands on `returnTo`. The callback reads the request from the same state store.
 */
export async function signInUrl(requests: OidcClient, returnTo: string): Promise<string> {
  const request = await requests.createSigninRequest({
    request_type: 'si:r',
    state: { returnTo: safeReturnPath(returnTo) },
  });
  return request.url;
}
