import type { Vault } from '../../security/vault.ts';
import type { Credentials } from './provider.ts';

/** A connection's credentials as stored: one JSON document sealed by the secrets vault. */
export function createCredentialSeal(vault: Vault) {
  const open = (sealed: string | null): Credentials | null =>
    sealed ? (JSON.parse(vault.open(sealed)) as Credentials) : null;
  function seal(credentials: Credentials): string;
  function seal(credentials: Credentials | null | undefined): string | null;
  function seal(credentials: Credentials | null | undefined) {
    return credentials ? vault.seal(JSON.stringify(credentials)) : null;
  }
  return {
    seal,
    open,
    /** For revocation only: a row whose credentials cannot be opened must not block a deletion. */
    openQuietly(sealed: string | null): Credentials | null {
      try {
        return open(sealed);
      } catch {
        return null;
      }
    },
  };
}

export type CredentialSeal = ReturnType<typeof createCredentialSeal>;
