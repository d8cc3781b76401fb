import type { UserManager } from 'oidc-client-ts';

/**
 * Sign-in as the router and the query cache use it, outside React: the shell's guard asks whether
 * someone is signed in and where to send them otherwise; a 401 asks for a silent refresh.
 */
export interface AuthClient {
  /** True when the runtime configuration switches sign-in off (the server uses its mock user). */
  readonly disabled: boolean;
  /** The sign-in client behind it, for the React bridge; absent when sign-in is off. */
  readonly userManager?: UserManager;
  /** Someone is signed in with an access token that has not expired. */
  isSignedIn(): Promise<boolean>;
  /** The identity provider's sign-in address; coming back lands on `returnTo` (an app path). */
  signInUrl(returnTo: string): Promise<string>;
  /** Gets a new access token without leaving the page; false when the provider gives none. */
  refresh(): Promise<boolean>;
  /** Drops the session kept in memory, so the next guarded page goes to sign-in. */
  forget(): Promise<void>;
}
