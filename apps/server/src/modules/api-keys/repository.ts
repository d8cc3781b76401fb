import type { ApiKey, ApiKeyScope } from '@cadre/contract';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ApiKeysTable, Database } from '../../db/schema.ts';

type Row = Omit<ApiKeysTable, 'id' | 'hash'> & { id: number };

const PUBLIC_COLUMNS = [
  'id',
  'user_id',
  'name',
  'prefix',
  'scopes',
  'agent_ids',
  'expires_at',
  'last_used_at',
  'created_at',
] as const;

export const toApiKey = (row: Row): ApiKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: JSON.parse(row.scopes) as ApiKeyScope[],
  agent_ids: row.agent_ids === null ? null : (JSON.parse(row.agent_ids) as number[]),
  created_at: row.created_at,
  last_used_at: row.last_used_at,
  expires_at: row.expires_at,
});

/** The `api_keys` table; every query but the verifier's lookup is scoped to the owner. */
export function createApiKeysRepository(db: Db) {
  const k = db.kysely;
  return {
    async insert(row: Omit<ApiKeysTable, 'id' | 'last_used_at'>, trx: Kysely<Database> = k): Promise<ApiKey> {
      const { id } = await trx
        .insertInto('api_keys')
        .values({ ...row, last_used_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      return toApiKey({ ...row, id, last_used_at: null });
    },

    async list(userId: number): Promise<ApiKey[]> {
      const rows = await k
        .selectFrom('api_keys')
        .select(PUBLIC_COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
      return rows.map(toApiKey);
    },

    /** The verifier's one lookup, on the unique hash index. */
    findByHash(hash: string): Promise<Row | undefined> {
      return k.selectFrom('api_keys').select(PUBLIC_COLUMNS).where('hash', '=', hash).executeTakeFirst();
    },

    /** Deletes the user's key; returns its hash (to drop it from the cache), or undefined if absent. */
    async delete(userId: number, id: number): Promise<string | undefined> {
      const row = await k
        .deleteFrom('api_keys')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .returning('hash')
        .executeTakeFirst();
      return row?.hash;
    },

    async touch(id: number, at: string) {
      await k.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    },
  };
}
