import { useQueryClient } from '@tanstack/react-query';
import { OidcClient, UserManager, type User } from 'oidc-client-ts';
import { useMemo, type ReactNode } from 'react';
import { AuthProvider as OidcProvider, useAuth } from 'react-oidc-context';
import type { RuntimeConfig } from '@cadre/contract';
import { useRuntimeConfig } from '../../config/runtime-config-context';
import { setAccessTokenSource } from '../../lib/access-token';
import { checkUser } from './api/check-user';
import { endChatSessions } from './api/end-chat-sessions';
import type { AuthClient } from './auth-client';
import { AuthSessionContext, MOCK_USER, type AuthSession } from './auth-session';
import { safeReturnPath } from './return-to';
import { signInUrl, userManagerSettings } from './sign-in-request';
import { signedInThisTab } from './signed-in-this-tab';

/** Sign-in for the router, the API client and the query cache (see AuthClient). */
export function createAuthClient(config: RuntimeConfig): AuthClient {
  if (config.disableAuth0) {
    // No token is sent: the server runs with DISABLE_AUTH=true and uses its own mock user.
    setAccessTokenSource(async () => undefined);
    return {
      disabled: true,
      isSignedIn: async () => true,
      signInUrl: async (returnTo) => safeReturnPath(returnTo),
      refresh: async () => false,
      forget: async () => {},
    };
  }
  const settings = userManagerSettings(config);
  const userManager = new UserManager(settings);
  // Builds the same request signinRedirect would, without navigating, so that the shell's guard
  // can throw a router redirect to it; both share the state store the callback reads.
  const requests = new OidcClient(settings);
  const currentUser = async () => {
    const user = await userManager.getUser();
    return user && !user.expired ? user : null;
  };
  setAccessTokenSource(async () => (await currentUser())?.access_token);
  const refresh = async () => {
    try {
      return (await userManager.signinSilent()) !== null;
    } catch {
      return false;
    }
  };
  // Tokens live in memory, so a reload forgets them. A tab that was signed in asks the provider
  // silently first; only when its session is gone does the guard send the browser to sign in.
  userManager.events.addUserLoaded(() => signedInThisTab.set(true));
  userManager.events.addUserUnloaded(() => signedInThisTab.set(false));
  return {
    disabled: false,
    userManager,
    async isSignedIn() {
      const user = await userManager.getUser();
      // An access token that expired (a laptop waking up) is renewed in place when the provider
      // allows it, rather than through a trip to its sign-in page.
      if (user) return !user.expired || refresh();
      if (!signedInThisTab.get()) return false;
      const restored = await refresh();
      if (!restored) signedInThisTab.set(false);
      return restored;
    },
    signInUrl: (returnTo) => signInUrl(requests, returnTo),
    refresh,
    forget: () => userManager.removeUser(),
  };
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
  const { chainlitUrl } = useRuntimeConfig();
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
      signOut: async () => {
        await endChatSessions({ chainlitUrl, accessToken: auth.user?.access_token });
        await auth.signoutRedirect();
      },
    };
  }, [auth, chainlitUrl]);
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
 * The sign-in state for the screens. It also finishes a sign-in when the provider sends the
 * browser back with a code: `navigate` then moves the router to the remembered path (the code and
 * state are removed from the address bar first).
 */
export function AuthProvider({
  auth,
  children,
  navigate,
}: {
  auth: AuthClient;
  children: ReactNode;
  navigate: (path: string) => void;
}) {
  const config = useRuntimeConfig();
  const queryClient = useQueryClient();
  if (!auth.userManager) {
    return (
      <AuthSessionContext.Provider value={mockSession(config.auth0LogoutRedirect)}>
        {children}
      </AuthSessionContext.Provider>
    );
  }
  return (
    <OidcProvider
      userManager={auth.userManager}
      onSigninCallback={(user) => {
        const state = (user?.state ?? {}) as { returnTo?: unknown };
        const target = safeReturnPath(state.returnTo);
        window.history.replaceState(window.history.state, '', target);
        navigate(target);
        void checkUser(queryClient);
      }}
    >
      <OidcSessionBridge>{children}</OidcSessionBridge>
    </OidcProvider>
  );
}
