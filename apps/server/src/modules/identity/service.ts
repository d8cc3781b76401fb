import crypto from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import type { Db } from '../../db/database.ts';
import { hitRateLimit, resetRateLimit } from '../../security/rate-limit.ts';
import {
  decoyHash,
  hashPassword,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  verifyPassword,
} from './passwords.ts';
import { createAccountRepository, type IdpAccount } from './repository.ts';

/**
 * Sign-in attempts in one window: per account from one client address, and per address, before
 * 429. Failures on an account from anywhere only slow its answers (base * 2^(failures - 1), up to
 * the cap), so a stranger who knows an email cannot lock its owner out (W2).
 */
export const SIGN_IN_LIMITS = {
  perAccountAndAddress: 5,
  perAddress: 30,
  windowSeconds: 15 * 60,
  delayBaseMs: 100,
  delayCapMs: 3_200,
};
/** Sign-ups per client address in one window; the count is configurable (IDP_SIGNUPS_PER_HOUR). */
export const SIGN_UP_LIMIT = { perAddress: 10, windowSeconds: 60 * 60 };

export type FieldErrors = Partial<Record<'email' | 'password' | 'name', string>>;

export type SignInResult =
  | { ok: true; account: IdpAccount }
  | { ok: false; reason: 'invalid'; delayMs: number }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number };

export type SignUpResult =
  | { ok: true; account: IdpAccount }
  | { ok: false; reason: 'invalid'; errors: FieldErrors }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number };

/** The identity module's time: tests move the clock and record the waits instead of sleeping. */
export interface IdentityClock {
  /** Milliseconds since the epoch, for the rate-limit windows. */
  now(): number;
  /** Waits before a failed sign-in is answered. */
  sleep(ms: number): Promise<void>;
}

const realClock: IdentityClock = { now: () => Date.now(), sleep: (ms) => wait(ms) };

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * Where sign-in attempts on an account are counted: every key of one account starts with this
 * (so deleting the account forgets them all), and holds a hash of the email, not the email.
 */
export const accountKeyPrefix = (email: string) =>
  `idp-signin:account:${crypto.createHash('sha256').update(normalizeEmail(email)).digest('hex')}`;

/** What the provider says about an account, in ID tokens and at userinfo (scopes pick from it). */
export function accountClaims(account: IdpAccount, issuer: string) {
  return {
    sub: account.subject,
    name: account.name,
    email: account.email,
    // Addresses are not verified by the built-in provider.
    email_verified: false,
    picture: `${issuer}/avatars/${encodeURIComponent(account.subject)}.svg`,
  };
}

/** The built-in provider's accounts: sign-up, sign-in with lockout, claims for tokens. */
export function createAccountService(
  db: Db,
  limits: { signUpsPerAddress: number } = { signUpsPerAddress: SIGN_UP_LIMIT.perAddress },
  clock: Partial<IdentityClock> = {},
) {
  const accounts = createAccountRepository(db);
  const { now, sleep } = { ...realClock, ...clock };
  return {
    findBySubject: (subject: string) => accounts.findBySubject(subject),

    async signIn(input: { email: string; password: string; address: string }): Promise<SignInResult> {
      const email = normalizeEmail(input.email);
      const accountKey = accountKeyPrefix(email);
      const pairKey = `${accountKey}:${input.address}`;
      const addressKey = `idp-signin:address:${input.address}`;
      const options = { windowSeconds: SIGN_IN_LIMITS.windowSeconds, now: now() };
      const byPair = await hitRateLimit(db, pairKey, {
        ...options,
        limit: SIGN_IN_LIMITS.perAccountAndAddress,
      });
      const byAddress = await hitRateLimit(db, addressKey, { ...options, limit: SIGN_IN_LIMITS.perAddress });
      if (!byPair.allowed || !byAddress.allowed) {
        const retryAfterSeconds = Math.max(
          byPair.allowed ? 0 : byPair.retryAfterSeconds,
          byAddress.allowed ? 0 : byAddress.retryAfterSeconds,
        );
        return { ok: false, reason: 'locked', retryAfterSeconds };
      }
      // Counted across addresses, never a lock: it only sets how long a failure waits.
      const byAccount = await hitRateLimit(db, accountKey, { ...options, limit: Number.MAX_SAFE_INTEGER });
      const account = await accounts.findByEmail(email);
      // Unknown accounts cost the same scrypt work, so timing does not tell which emails exist.
      const matches = await verifyPassword(input.password, account?.password_hash ?? (await decoyHash()));
      if (account && matches) {
        await resetRateLimit(db, accountKey);
        await resetRateLimit(db, pairKey);
        return { ok: true, account };
      }
      const failures = Math.max(byAccount.count, 1);
      const delayMs = Math.min(SIGN_IN_LIMITS.delayBaseMs * 2 ** (failures - 1), SIGN_IN_LIMITS.delayCapMs);
      // Each failure for the same account waits longer before it is answered (up to a cap).
      await sleep(delayMs);
      return { ok: false, reason: 'invalid', delayMs };
    },

    async signUp(input: {
      email: string;
      password: string;
      name: string;
      address: string;
    }): Promise<SignUpResult> {
      const email = normalizeEmail(input.email);
      const name = input.name.trim();
      const errors: FieldErrors = {};
      if (!name) errors.name = 'Enter your name.';
      else if (name.length > 100) errors.name = 'Use at most 100 characters.';
      if (!EMAIL_PATTERN.test(email) || email.length > 254) errors.email = 'Enter a valid email address.';
      if (input.password.length < MIN_PASSWORD_LENGTH)
        errors.password = `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
      else if (input.password.length > MAX_PASSWORD_LENGTH)
        errors.password = `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
      if (Object.keys(errors).length) return { ok: false, reason: 'invalid', errors };

      const limit = await hitRateLimit(db, `idp-signup:address:${input.address}`, {
        limit: limits.signUpsPerAddress,
        windowSeconds: SIGN_UP_LIMIT.windowSeconds,
        now: now(),
      });
      if (!limit.allowed) return { ok: false, reason: 'locked', retryAfterSeconds: limit.retryAfterSeconds };

      const account = await accounts.insert({
        subject: crypto.randomUUID(),
        email,
        name,
        password_hash: await hashPassword(input.password),
      });
      if (!account) {
        return {
          ok: false,
          reason: 'invalid',
          errors: { email: 'An account with this email already exists. Sign in instead.' },
        };
      }
      return { ok: true, account };
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
