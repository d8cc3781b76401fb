import { createContext, useContext } from 'react';

export interface AuthUser {
  sub: string;
  name?: string;
  email?: string;
  picture?: string;
}

/** What the rest of the app knows about sign-in, whichever way it is configured. */
export interface AuthSession {
  /** True when the runtime configuration disables sign-in (a mock user is used). */
  disabled: boolean;
  status: 'loading' | 'signedIn' | 'signedOut' | 'error';
  user?: AuthUser;
  accessToken?: string;
  error?: Error;
  /** Sends the browser to the identity provider, coming back to `returnTo` (a relative path). */
  signIn(returnTo: string): Promise<void>;
  /** Ends the provider session and returns to the configured logout redirect. */
  signOut(): Promise<void>;
}

/** The user shown when sign-in is disabled; the server (DISABLE_AUTH=true) uses its own mock. */
export const MOCK_USER: AuthUser = { sub: 'mock-user', name: 'Mock User', email: 'mock.user@example.com' };

export const AuthSessionContext = createContext<AuthSession | null>(null);

export function useAuthSession(): AuthSession {
  const session = useContext(AuthSessionContext);
  if (!session) throw new Error('useAuthSession must be used inside AuthProvider');
  return session;
}
