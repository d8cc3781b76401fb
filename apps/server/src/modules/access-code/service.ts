import crypto from 'node:crypto';
import path from 'node:path';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import { hitRateLimit } from '../../security/rate-limit.ts';
import { readOrCreateSecretFile } from '../../security/secret-file.ts';
import type { AuditLog } from '../../deps.ts';

/** Tries per client address per minute before the gate answers 429. */
export const ACCESS_CODE_ATTEMPTS_PER_MINUTE = 10;

const FILE_NAME = 'access-code';
// No 0/O or 1/I/L: the code is read off a terminal and typed by hand.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

function generateCode() {
  const chars = Array.from({ length: 16 }, () => ALPHABET[crypto.randomInt(ALPHABET.length)]);
  return [0, 4, 8, 12].map((i) => chars.slice(i, i + 4).join('')).join('-');
}

/** Reads `<data>/access-code`, creating it (mode 0600) with a random code on first use. */
export function loadOrCreateAccessCode(dataDir: string): string {
  return readOrCreateSecretFile(path.join(dataDir, FILE_NAME), () => `${generateCode()}\n`).trim();
}

/**
 * The code to print in the start-up log: the generated one when BETA_ACCESS_CODES is empty,
 * nothing when codes are configured (those are the operator's to hand out).
 */
export function generatedAccessCode(config: Config): string | undefined {
  return config.accessCodes.length ? undefined : loadOrCreateAccessCode(config.dataDir);
}

const digest = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest();

/**
 * Compares against every code without stopping early; hashing first gives equal-length inputs to
 * `timingSafeEqual`, so neither the code nor its length leaks through timing.
 */
function matchesAny(candidate: string, codes: Buffer[]) {
  const given = digest(candidate);
  let match = false;
  for (const code of codes) match = crypto.timingSafeEqual(given, code) || match;
  return match;
}

export function createAccessCodeService(deps: { config: Config; db: Db; audit: AuditLog }) {
  const codes = (
    deps.config.accessCodes.length ? deps.config.accessCodes : [generatedAccessCode(deps.config)!]
  ).map(digest);

  return {
    async signIn(password: string, clientAddress: string) {
      const limit = await hitRateLimit(deps.db, `access-code:${clientAddress}`, {
        limit: ACCESS_CODE_ATTEMPTS_PER_MINUTE,
        windowSeconds: 60,
      });
      if (!limit.allowed) {
        throw new HttpError(429, 'Too many attempts; try again later', {
          'retry-after': String(limit.retryAfterSeconds),
        });
      }
      const ok = matchesAny(password, codes);
      await deps.audit.record({
        userId: null,
        action: ok ? 'access_code.success' : 'access_code.failure',
        detail: { client: clientAddress },
      });
      if (!ok) throw new HttpError(401, 'Incorrect password');
      return { success: true as const };
    },
  };
}
