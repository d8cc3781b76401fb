import type { AccessCode, AccessCodeCreate } from '@cadre/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { notFound, ValidationFailure } from '../../http/errors.ts';
import type { AuditLog, AuthUser } from '../../kernel.ts';
import { loadOrCreateKeyFile, type Vault } from '../../security/vault.ts';
import { createAccessCodesRepository } from './repository.ts';
import { accessCodeHasher, generateCode, generatedAccessCode } from './service.ts';

const hintOf = (code: string) => code.slice(-4);

/**
 * The admin console's Access codes: the codes of BETA_ACCESS_CODES (or the generated one), read
 * only, and codes made here with a label, an expiry and a maximum of uses, revocable. A code made
 * here is shown whole once, when it is made; only its HMAC is kept.
 */
export function createAccessCodesAdmin(deps: { config: Config; db: Db; vault: Vault; audit: AuditLog }) {
  const stored = createAccessCodesRepository(deps.db);
  const hashOf = accessCodeHasher(deps.config.secretsKey ?? loadOrCreateKeyFile(deps.config.dataDir));
  const readOnly = (code: string, source: 'environment' | 'generated'): AccessCode => ({
    id: null,
    source,
    label: source === 'environment' ? 'BETA_ACCESS_CODES' : 'Generated at first start',
    code,
    hint: hintOf(code),
    expires_at: null,
    max_uses: null,
    uses: null,
    revoked_at: null,
    created_at: null,
  });

  return {
    async list(): Promise<AccessCode[]> {
      const generated = await generatedAccessCode(deps);
      const configured = generated
        ? [readOnly(generated, 'generated')]
        : deps.config.accessCodes.map((code) => readOnly(code, 'environment'));
      const made = (await stored.list()).map((row) => ({ ...row, source: 'admin' as const, code: null }));
      return [...configured, ...made];
    },

    async create(actor: AuthUser, input: AccessCodeCreate): Promise<AccessCode & { code: string }> {
      const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
      if (expiresAt && expiresAt.getTime() <= Date.now()) {
        throw new ValidationFailure([
          { loc: ['body', 'expires_at'], msg: 'must be in the future', type: 'value_error' },
        ]);
      }
      const code = generateCode();
      const row = await stored.insert({
        label: input.label,
        code_hash: hashOf(code),
        hint: hintOf(code),
        expires_at: expiresAt?.toISOString() ?? null,
        max_uses: input.max_uses ?? null,
        created_by: actor.id,
      });
      await deps.audit.record({
        userId: actor.id,
        action: 'access_code.create',
        objectType: 'access_code',
        objectId: row.id,
        detail: { label: row.label, max_uses: row.max_uses, expires_at: row.expires_at },
      });
      return { ...row, source: 'admin', code };
    },

    async revoke(actor: AuthUser, id: number) {
      if (!(await stored.revoke(id)) && !(await stored.exists(id))) throw notFound('Access code not found');
      await deps.audit.record({
        userId: actor.id,
        action: 'access_code.revoke',
        objectType: 'access_code',
        objectId: id,
      });
    },
  };
}

export type AccessCodesAdmin = ReturnType<typeof createAccessCodesAdmin>;
