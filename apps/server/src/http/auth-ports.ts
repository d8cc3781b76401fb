import type { ApiKeyScope } from '@cadre/contract';
import type { AuthUser, UserIdentity } from '../kernel.ts';

/**
 * What the token checks (auth.ts) need of the modules that know users, the access-code gate and
 * API keys. A shared layer imports no module, so it names its needs here and `app.ts` hands it the
 * users, access-code and api-keys modules, which fit these shapes.
 */

/** A user as sign-in finds them: whether they passed the beta access-code gate, and are disabled. */
export interface ResolvedUser extends AuthUser {
  admitted: boolean;
  disabled: boolean;
}

/** The users a token names. */
export interface SignInDirectory {
  /** Finds the user by issuer + subject (never by email), creating the row on first sight. */
  resolve(identity: UserIdentity): Promise<ResolvedUser>;
  /**
   * As `resolve`, for a verified access token issued at `issuedAt` (its `iat`, seconds): undefined
   * when the identity's account was deleted after that, so the token is refused and creates nothing.
   */
  forToken(identity: UserIdentity, issuedAt: number | undefined): Promise<ResolvedUser | undefined>;
  /** Records that the user passed the beta access-code gate (once; later calls change nothing). */
  admit(identity: UserIdentity): Promise<void>;
}

/** The beta access-code gate: whether a request carries the signed proof of a correct code. */
export interface AccessProofs {
  /** False with DISABLE_AUTH (every request is the mock user, and nobody signs in). */
  readonly enabled: boolean;
  /** Whether a request's `Cookie` header carries a valid, unexpired proof. */
  hasProof(cookieHeader: string | undefined): boolean;
}

/** What a valid personal API key lets its bearer do, and as whom. */
export interface ApiKeyGrant {
  keyId: number;
  user: AuthUser;
  scopes: readonly ApiKeyScope[];
  /** The agents the key is limited to; null for all of the user's agents. */
  agentIds: readonly number[] | null;
  /** The web origins a browser may call with the key from (CORS on the agent API). */
  origins: readonly string[];
}

/** Personal API keys, told apart from sign-in tokens and checked. */
export interface ApiKeyVerifier {
  /** Whether a bearer token is an API key (by its prefix) rather than a sign-in token. */
  isApiKey(token: string): boolean;
  /** The key's grant; undefined when it is unknown, revoked or expired, or its user is gone. */
  verify(key: string): Promise<ApiKeyGrant | undefined>;
}
