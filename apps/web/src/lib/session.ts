import { useContext } from 'react';
import { AuthContext } from 'react-oidc-context';
import { useRuntimeConfig } from '../config/runtime-config-context';

export interface Session {
  /** True while the identity provider is still restoring the session. */
  isLoading: boolean;
  /** Signed in, or sign-in is switched off (disableAuth0) and the server uses its mock user. */
  isSignedIn: boolean;
  accessToken: string | undefined;
  profile: Record<string, unknown> | undefined;
  /** Starts the identity-provider sign-in, when there is one. */
  signIn: (() => Promise<void>) | undefined;
  /** Ends the local session and leaves for the configured logout redirect. */
  signOut: () => Promise<void>;
}

/**
 * The signed-in user as far as the pages of this app need it. It reads the sign-in context when
 * the app provides one and never requires it, so pages outside the protected shell (the copilot)
 * can tell "not signed in" apart from "no sign-in at all".
 */
export function useSession(): Session {
  const auth = useContext(AuthContext);
  const config = useRuntimeConfig();
  const signOut = async () => {
    if (auth) {
      await auth.removeUser();
    }
    window.location.assign(config.auth0LogoutRedirect);
  };
  if (!auth) {
    return {
      isLoading: false,
      isSignedIn: config.disableAuth0,
      accessToken: undefined,
      profile: undefined,
      signIn: undefined,
      signOut,
    };
  }
  return {
    isLoading: auth.isLoading,
    isSignedIn: config.disableAuth0 || auth.isAuthenticated,
    accessToken: auth.user?.access_token,
    profile: auth.user?.profile as Record<string, unknown> | undefined,
    // Come back to this page (the sign-in callback only accepts a relative path on this app).
    signIn: () =>
      auth.signinRedirect({ state: { returnTo: window.location.pathname + window.location.search } }),
    signOut,
  };
}
