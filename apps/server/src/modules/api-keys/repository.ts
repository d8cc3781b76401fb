import type { ApiKey, ApiKeyScope } from '@cadre/contract';
import { sql, type Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import type { ApiKeysTable, Database } from '../../db/schema.ts';

type Row = Omit<ApiKeysTable, 'id' | 'hash'> & { id: number };

const PUBLIC_COLUMNS = [
  'id',
  'user_id',
  'name',
  'prefix',
  'scopes',
  'agent_ids',
  'allowed_origins',
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
  allowed_origins: JSON.parse(row.allowed_origins) as string[],
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

    /** Sets the origins of the user's key; returns the key and its hash, or undefined if absent. */
    async setOrigins(userId: number, id: number, origins: string[], trx: Kysely<Database> = k) {
      const row = await trx
        .updateTable('api_keys')
        .set({ allowed_origins: JSON.stringify(origins) })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .returning([...PUBLIC_COLUMNS, 'hash'])
        .executeTakeFirst();
      return row && { key: toApiKey(row), hash: row.hash };
    },

    /**
     * Whether any key lists the origin (a preflight carries no key to look at). The origins are
     * normalised and stored JSON-quoted, so the quoted origin matches only itself.
     */
    async anyAllowsOrigin(origin: string): Promise<boolean> {
      const row = await k
        .selectFrom('api_keys')
        .select('id')
        .where(sql<boolean>`allowed_origins like ${containsPattern(JSON.stringify(origin))} escape '\\'`)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
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
