import { keyedHasher } from '../../security/vault.ts';
import type { UserIdentity } from '../../kernel.ts';

/**
 * A token counts as issued before a deletion unless its `iat` is more than this after it: the
 * leeway the token checks allow for an issuer's clock (http/auth.ts), so a token an issuer with a
 * fast clock signed just before the deletion is still refused.
 */
const DELETION_LEEWAY_SECONDS = 30;

/**
 * What `deleted_identities` keeps of an identity: an HMAC-SHA-256 of issuer and subject under a key
 * derived from the vault key `secret`, so the table names nobody (the subject is the user's
 * pseudonym at the issuer) yet a token's identity is recognised.
 */
export function identityHasher(
  secret: Buffer,
): (identity: Pick<UserIdentity, 'issuer' | 'subject'>) => string {
  const hash = keyedHasher(secret, 'cadre/deleted-identity/v1');
  return ({ issuer, subject }) => hash(`${issuer}\n${subject}`);
}

/** Whether a token issued at `issuedAt` (seconds) came after a deletion at `deletedAt`. */
export const issuedAfter = (deletedAt: string, issuedAt: number | undefined) =>
  issuedAt !== undefined && issuedAt > Date.parse(deletedAt) / 1000 + DELETION_LEEWAY_SECONDS;
