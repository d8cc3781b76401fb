import crypto from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { AuditLog } from '../../kernel.ts';
import { loadOrCreateKeyFile, type Vault } from '../../security/vault.ts';
import { createAccessCodeService } from './service.ts';

/** The cookie carrying the proof that this browser entered a correct access code. */
export const ACCESS_PROOF_COOKIE = 'cadre_beta';
/** Long enough to sign up at the provider after entering the code; short enough to be worth little. */
export const ACCESS_PROOF_TTL_SECONDS = 60 * 60;
const VERSION = 'v1';

/**
 * The beta access-code gate as other modules see it. A correct code at `beta-user-signin` earns the
 * browser a signed, short-lived proof in an httpOnly cookie; sign-up at the built-in provider needs
 * one, and the API admits a user who presents one.
 */
export interface AccessGate {
  /** False with DISABLE_AUTH (every request is the mock user, and nobody signs in). */
  readonly enabled: boolean;
  /** Whether a request's `Cookie` header carries a valid, unexpired proof. */
  hasProof(cookieHeader: string | undefined): boolean;
  /**
   * Checks a code typed somewhere else than the web app (the provider's sign-up page): rate
   * limited and audited like `beta-user-signin`. The `Set-Cookie` value of a new proof, or
   * undefined for a wrong code; throws the 429 when the address has tried too often.
   */
  redeem(code: string, clientAddress: string): Promise<string | undefined>;
}

/**
 * The gate (docs/security.md, "Access code"): a correct code earns a proof, `v1.<expiry>` signed
 * with HMAC-SHA256 under a key derived from the vault key (so every instance sharing SECRETS_KEY
 * accepts it), in an httpOnly SameSite=Lax cookie for the whole origin: the web app's API client
 * and the provider's pages are same-origin and send it along.
 */
export async function createAccessGate(deps: {
  config: Config;
  db: Db;
  vault: Vault;
  audit: AuditLog;
  now?: () => number;
}): Promise<AccessGate> {
  const { config } = deps;
  const now = deps.now ?? Date.now;
  const codes = await createAccessCodeService(deps);
  const secret = config.secretsKey ?? loadOrCreateKeyFile(config.dataDir);
  const signer = fastifyCookie.signerFactory(
    Buffer.from(crypto.hkdfSync('sha256', secret, Buffer.alloc(0), 'cadre/access-proof/v1', 32)),
  );
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.publicUrl.startsWith('https:'),
    maxAge: ACCESS_PROOF_TTL_SECONDS,
  };

  return {
    enabled: !config.auth.disabled,

    hasProof(cookieHeader) {
      if (!cookieHeader) return false;
      const proof = fastifyCookie.parse(cookieHeader)[ACCESS_PROOF_COOKIE];
      if (!proof) return false;
      const opened = signer.unsign(proof);
      if (!opened.valid) return false;
      const [version, expiry] = opened.value.split('.');
      return version === VERSION && Number(expiry) * 1000 > now();
    },

    async redeem(code, clientAddress) {
      if (!(await codes.check(code, clientAddress))) return undefined;
      const expiry = Math.floor(now() / 1000) + ACCESS_PROOF_TTL_SECONDS;
      return fastifyCookie.serialize(ACCESS_PROOF_COOKIE, signer.sign(`${VERSION}.${expiry}`), cookieOptions);
    },
  };
}
