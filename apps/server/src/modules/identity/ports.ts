import type { UserIdentity } from '../../kernel.ts';

/** What the built-in provider needs of the access-code module (`app.ts` wires it in): sign-up is behind the gate. */
export interface SignUpGate {
  /** False with DISABLE_AUTH. */
  readonly enabled: boolean;
  /** Whether a request's `Cookie` header carries a valid, unexpired proof of the access code. */
  hasProof(cookieHeader: string | undefined): boolean;
  /**
   * Checks a code typed on the sign-up page (rate limited and audited): the `Set-Cookie` value of
   * a new proof, or undefined for a wrong code; throws the 429 when the address has tried too often.
   */
  redeem(code: string, clientAddress: string): Promise<string | undefined>;
}

/** What the provider's pages need of the users module: a new account is admitted at once. */
export interface IdentityUsers {
  /** Records that the user passed the access-code gate, creating the user first when needed. */
  admit(identity: UserIdentity): Promise<void>;
  /** Whether an admin disabled the account of this identity (it may not sign in). */
  isDisabled(identity: Pick<UserIdentity, 'issuer' | 'subject'>): Promise<boolean>;
}
