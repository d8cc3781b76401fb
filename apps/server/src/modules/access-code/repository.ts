import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

const COLUMNS = [
  'id',
  'label',
  'hint',
  'expires_at',
  'max_uses',
  'uses',
  'revoked_at',
  'created_at',
] as const;

/** The `access_codes` table (access-code module): codes an admin made, by the HMAC of each. */
export function createAccessCodesRepository(db: Db) {
  const k = db.kysely;
  return {
    list: () => k.selectFrom('access_codes').select(COLUMNS).orderBy('id', 'desc').execute(),

    async insert(row: {
      label: string;
      code_hash: string;
      hint: string;
      expires_at: string | null;
      max_uses: number | null;
      created_by: number;
    }) {
      return k
        .insertInto('access_codes')
        .values({ ...row, created_at: new Date().toISOString() })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
    },

    /**
     * Counts one use of the code with this hash if it may still be used (not revoked, not expired,
     * uses left), in one statement, so two entries at once cannot both take the last use. The
     * code's id, or undefined when there is no such usable code.
     */
    async use(codeHash: string, now: string): Promise<number | undefined> {
      const row = await k
        .updateTable('access_codes')
        .set({ uses: sql`uses + 1` })
        .where('code_hash', '=', codeHash)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    /** True when the code was live and is now revoked. */
    async revoke(id: number): Promise<boolean> {
      const result = await k
        .updateTable('access_codes')
        .set({ revoked_at: new Date().toISOString() })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    exists: async (id: number) =>
      (await k.selectFrom('access_codes').select('id').where('id', '=', id).executeTakeFirst()) !== undefined,
  };
}
