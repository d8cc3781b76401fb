import { InMemoryWebStorage, UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import { useMemo, useState, type ReactNode } from 'react';
import { AuthProvider as OidcProvider, useAuth } from 'react-oidc-context';
import type { RuntimeConfig } from '@cadre/contract';
import { useRuntimeConfig } from '../../config/runtime-config-context';
import { setAccessTokenSource } from '../../lib/access-token';
import { checkUser } from './api/check-user';
import { AuthSessionContext, MOCK_USER, type AuthSession } from './auth-session';
import { safeReturnPath } from './return-to';

export const SIGN_IN_SCOPE = 'openid profile email';

/** The sign-in client, built only from the runtime configuration (spec section 3). */
export function createUserManager(config: RuntimeConfig): UserManager {
  return new UserManager({
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
    automaticSilentRenew: true,
    // The profile comes from the ID token; the access token is for the API, not /userinfo.
    loadUserInfo: false,
  });
}

const userOf = (user: User | null | undefined) =>
  user
    ? {
        sub: user.profile.sub,
        name: user.profile.name,
        email: user.profile.email,
        picture: user.profile.picture,
      }
    : undefined;

function OidcSessionBridge({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const session = useMemo<AuthSession>(() => {
    const status: AuthSession['status'] =
      auth.isLoading || auth.activeNavigator
        ? 'loading'
        : auth.isAuthenticated
          ? 'signedIn'
          : auth.error
            ? 'error'
            : 'signedOut';
    return {
      disabled: false,
      status,
      user: userOf(auth.user),
      accessToken: auth.user?.access_token,
      error: auth.error ?? undefined,
      signIn: (returnTo) => auth.signinRedirect({ state: { returnTo: safeReturnPath(returnTo) } }),
      signOut: () => auth.signoutRedirect(),
    };
  }, [auth]);
  return <AuthSessionContext.Provider value={session}>{children}</AuthSessionContext.Provider>;
}

const mockSession = (logoutRedirect: string): AuthSession => ({
  disabled: true,
  status: 'signedIn',
  user: MOCK_USER,
  signIn: async () => {},
  signOut: async () => {
    window.location.assign(logoutRedirect);
  },
});

/**
 * Sign-in for the whole app. `navigate` moves the router after the provider's redirect back (the
 * authorization code and state are removed from the address bar first).
 */
export function AuthProvider({
  children,
  navigate,
}: {
  children: ReactNode;
  navigate: (path: string) => void;
}) {
  const config = useRuntimeConfig();
  const [userManager] = useState(() => {
    const manager = config.disableAuth0 ? undefined : createUserManager(config);
    // With sign-in disabled no token is sent: the server runs with DISABLE_AUTH=true.
    setAccessTokenSource(async () => {
      const user = await manager?.getUser();
      return user && !user.expired ? user.access_token : undefined;
    });
    return manager;
  });

  if (!userManager) {
    return (
      <AuthSessionContext.Provider value={mockSession(config.auth0LogoutRedirect)}>
        {children}
      </AuthSessionContext.Provider>
    );
  }
  return (
    <OidcProvider
      userManager={userManager}
      onSigninCallback={(user) => {
        const state = (user?.state ?? {}) as { returnTo?: unknown };
        const target = safeReturnPath(state.returnTo);
        window.history.replaceState(window.history.state, '', target);
        navigate(target);
        void checkUser();
      }}
    >
      <OidcSessionBridge>{children}</OidcSessionBridge>
    </OidcProvider>
  );
}
