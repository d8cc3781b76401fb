import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { AuditLog } from '../../kernel.ts';
import { HttpError } from '../../http/errors.ts';
import { hitRateLimit } from '../../security/rate-limit.ts';
import { loadOrCreateSealedSetting } from '../../security/sealed-setting.ts';
import { keyedHasher, loadOrCreateKeyFile, type Vault } from '../../security/vault.ts';
import { createAccessCodesRepository } from './repository.ts';

/** The settings row (sealed by the vault) holding the generated code. */
export const GENERATED_CODE_SETTING = 'access_code.generated';
/** Where versions before 0.2 kept the generated code; read once so an existing code keeps working. */
const LEGACY_FILE_NAME = 'access-code';
// No 0/O or 1/I/L: the code is read off a terminal and typed by hand.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function generateCode() {
  const chars = Array.from({ length: 16 }, () => ALPHABET[crypto.randomInt(ALPHABET.length)]);
  return [0, 4, 8, 12].map((i) => chars.slice(i, i + 4).join('')).join('-');
}

function legacyCode(dataDir: string): string | undefined {
  try {
    return fs.readFileSync(path.join(dataDir, LEGACY_FILE_NAME), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

interface AccessCodeDeps {
  config: Config;
  db: Db;
  vault: Vault;
}

/**
 * The code the gate accepts when BETA_ACCESS_CODES is empty: generated once and stored sealed in
 * the database, so every instance on that database accepts the same code. Undefined when codes
 * are configured (those are the operator's to hand out, and nothing is generated or printed).
 */
export async function generatedAccessCode({
  config,
  db,
  vault,
}: AccessCodeDeps): Promise<string | undefined> {
  if (config.accessCodes.length) return undefined;
  return loadOrCreateSealedSetting(
    db,
    vault,
    GENERATED_CODE_SETTING,
    () => legacyCode(config.dataDir) ?? generateCode(),
  );
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

/** The key of the HMAC `access_codes` keeps of a code made in the console. */
export const accessCodeHasher = (secret: Buffer) => keyedHasher(secret, 'cadre/access-code/v1');

export async function createAccessCodeService(deps: AccessCodeDeps & { audit: AuditLog }) {
  const generated = await generatedAccessCode(deps);
  const codes = (generated ? [generated] : deps.config.accessCodes).map(digest);
  const stored = createAccessCodesRepository(deps.db);
  const hashOf = accessCodeHasher(deps.config.secretsKey ?? loadOrCreateKeyFile(deps.config.dataDir));

  return {
    /** Whether `code` is one of the codes; throws the 429 when the address has tried too often. */
    async check(code: string, clientAddress: string): Promise<boolean> {
      const limit = await hitRateLimit(deps.db, `access-code:${clientAddress}`, {
        limit: deps.config.accessCodeAttemptsPerMinute,
        windowSeconds: 60,
      });
      if (!limit.allowed) {
        throw new HttpError('rate_limited', 'Too many attempts; try again later', {
          'retry-after': String(limit.retryAfterSeconds),
        });
      }
      // The configured codes first (always compared, in constant time); then the console's, whose
      // use is counted only when none of those matched.
      const configured = matchesAny(code, codes);
      const madeHere =
        configured || code.length > 200
          ? undefined
          : await stored.use(hashOf(code), new Date().toISOString());
      const ok = configured || madeHere !== undefined;
      await deps.audit.record({
        userId: null,
        action: ok ? 'access_code.success' : 'access_code.failure',
        detail: { client: clientAddress, ...(madeHere !== undefined && { code_id: madeHere }) },
      });
      return ok;
    },
  };
}
