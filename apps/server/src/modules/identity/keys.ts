import crypto from 'node:crypto';
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK, type JWTVerifyGetKey } from 'jose';
import type { Db } from '../../db/database.ts';
import { loadOrCreateSealedSetting, replaceSealedSetting } from '../../security/sealed-setting.ts';
import type { Vault } from '../../security/vault.ts';

/** Settings rows (sealed by the vault) holding the provider's key material. */
export const SIGNING_KEYS_SETTING = 'idp.signing_keys';
export const COOKIE_KEYS_SETTING = 'idp.cookie_keys';

export interface IdentityKeys {
  /** Private JWKs; the first signs, the others still verify (rotation, docs/security.md). */
  signing: JWK[];
  /** Keys that sign the provider's cookies; the first signs, the others still verify. */
  cookie: string[];
}

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: crypto.randomUUID(), alg: 'RS256', use: 'sig' };
}

/** The provider's keys, created on first start and shared by every instance through the database. */
export async function loadIdentityKeys(db: Db, vault: Vault): Promise<IdentityKeys> {
  const signing = await loadOrCreateSealedSetting(db, vault, SIGNING_KEYS_SETTING, async () => ({
    keys: [await newSigningKey()],
  }));
  const cookie = await loadOrCreateSealedSetting(db, vault, COOKIE_KEYS_SETTING, async () => ({
    keys: [crypto.randomBytes(32).toString('base64url')],
  }));
  return { signing: signing.keys, cookie: cookie.keys };
}

/** The public half of the signing keys: what `/idp/jwks` publishes. */
export function publicJwks(keys: IdentityKeys): { keys: JWK[] } {
  return {
    keys: keys.signing.map(({ kty, n, e, crv, x, y, kid, alg, use }) =>
      Object.fromEntries(
        Object.entries({ kty, n, e, crv, x, y, kid, alg, use }).filter(([, v]) => v !== undefined),
      ),
    ),
  };
}

/**
 * A jose key getter over the public keys, for verifying tokens in-process (no HTTP round trip).
 * A token signed with a key this process has not seen (another instance rotated) makes it re-read
 * the stored keys, at most once every `refreshSeconds`.
 */
export function localKeySet(
  db: Db,
  vault: Vault,
  initial: IdentityKeys,
  refreshSeconds = 30,
): JWTVerifyGetKey {
  let current = createLocalJWKSet(publicJwks(initial));
  let known = new Set(initial.signing.map((k) => k.kid));
  let lastRefresh = 0;
  return async (header, token) => {
    if (header.kid && !known.has(header.kid) && Date.now() - lastRefresh > refreshSeconds * 1000) {
      lastRefresh = Date.now();
      const fresh = await loadIdentityKeys(db, vault);
      current = createLocalJWKSet(publicJwks(fresh));
      known = new Set(fresh.signing.map((k) => k.kid));
    }
    return current(header, token);
  };
}

/**
 * Key rotation, step 1 (docs/security.md): appends a new key that verifies but does not sign yet.
 * Once every instance has restarted (or re-read the keys), `promoteNewestSigningKey` makes it sign.
 */
export async function addSigningKey(db: Db, vault: Vault): Promise<void> {
  const current = await loadIdentityKeys(db, vault);
  await storeSigningKeys(db, vault, [...current.signing, await newSigningKey()]);
}

/** Rotation, step 2: the newest key signs; older keys keep verifying until `retireSigningKeys`. */
export async function promoteNewestSigningKey(db: Db, vault: Vault): Promise<void> {
  const { signing } = await loadIdentityKeys(db, vault);
  const newest = signing.at(-1);
  if (newest) await storeSigningKeys(db, vault, [newest, ...signing.slice(0, -1)]);
}

/** Rotation, step 3 (after the longest token lifetime has passed): drops all but the signing key. */
export async function retireSigningKeys(db: Db, vault: Vault): Promise<void> {
  const { signing } = await loadIdentityKeys(db, vault);
  await storeSigningKeys(db, vault, signing.slice(0, 1));
}

const storeSigningKeys = (db: Db, vault: Vault, keys: JWK[]) =>
  replaceSealedSetting(db, vault, SIGNING_KEYS_SETTING, { keys });
