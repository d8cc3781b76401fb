import type { JWTVerifyGetKey } from 'jose';
import type Provider from 'oidc-provider';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Vault } from '../../security/vault.ts';
import { loadIdentityKeys, localKeySet } from './keys.ts';
import type { SignOutHook } from './oidc.ts';
import type { IdentityUsers, SignUpGate } from './ports.ts';
import { createAccountService, type AccountService, type IdentityClock } from './service.ts';

export { ACCESS_TOKEN_TTL_SECONDS, WEB_SCOPES } from './token-settings.ts';

export interface Identity {
  /** The OpenID Connect provider (oidc.ts), made on first use: most starts serve no /idp request. */
  provider(): Promise<Provider>;
  accounts: AccountService;
  /** The beta access-code gate sign-up is behind. */
  gate: SignUpGate;
  /** Origins whose browsers may call the provider's endpoints (the app's and the provider's own). */
  corsOrigins: ReadonlySet<string>;
  /** Verifies access tokens with this provider's keys in-process (for `buildApp({authKeys})`). */
  localKeySet(): JWTVerifyGetKey;
  /**
   * Run with the account's subject and the session's `sid` when a provider session ends
   * (RP-initiated logout), before the browser is redirected: the app ends what is tied to it (A4).
   */
  readonly onSignOut: SignOutHook[];
}

const originOf = (url: string) => new URL(url).origin;

/** What the provider's pages (routes.ts) are given. */
export interface IdentityRouteOptions {
  config: Config;
  users: IdentityUsers;
  identity: Identity;
}

/** What tests may replace: the clock of the sign-in limits and the wait after a failed sign-in. */
export type IdentityOptions = Partial<IdentityClock>;

/**
 * The built-in identity provider: its keys (access tokens are verified in-process with them from
 * the start), its accounts, and the OpenID Connect provider itself (oidc.ts), built on first use.
 */
export async function createIdentity(
  { config, db, vault }: { config: Config; db: Db; vault: Vault },
  gate: SignUpGate,
  options: IdentityOptions = {},
): Promise<Identity> {
  const keys = await loadIdentityKeys(db, vault);
  const accounts = createAccountService(db, { signUpsPerAddress: config.auth.signUpsPerHour }, options);
  const { issuer, redirectUri, logoutRedirectUri } = config.auth;
  const corsOrigins = new Set([originOf(redirectUri), originOf(logoutRedirectUri), originOf(issuer)]);
  const onSignOut: Identity['onSignOut'] = [];
  let provider: Promise<Provider> | undefined;
  return {
    provider: () =>
      (provider ??= import('./oidc.ts').then(({ buildProvider }) =>
        buildProvider({ config, db }, keys, accounts, corsOrigins, onSignOut),
      )),
    accounts,
    gate,
    corsOrigins,
    onSignOut,
    localKeySet: () => localKeySet(db, vault, keys),
  };
}
