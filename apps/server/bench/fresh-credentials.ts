/**
 * Credentials a running Cadre has not cached, for `npm run bench`'s rows on what checking a sign-in
 * token or an API key costs when the server's cache cannot answer. Both caches hold at most
 * 10,000 entries and drop the oldest first, so credentials used in turn, more of them than that,
 * are each gone from the cache before their next use: every request is checked in full.
 *
 * They are made beside the server, on its data folder, because its API would take minutes to make
 * as many (a refresh grant costs the server about 4 ms of CPU, a key about 2 ms and a commit):
 * - sign-in tokens: copies of an access token the built-in provider issued (same header, same
 *   claims), each with its own `jti`, signed with the provider's own key as the database holds it;
 * - API keys: rows of the same user with the same scopes as one the API made, stored as the API
 *   stores them (the hash only).
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { openDatabase, type Db } from '../src/db/database.ts';
import { VERIFIED_TOKENS_MAX } from '../src/http/auth.ts';
import { API_KEY_CACHE_MAX, apiKeyHasher, newApiKey } from '../src/modules/api-keys/index.ts';
import { loadIdentityKeys } from '../src/modules/identity/index.ts';
import { createVault, loadOrCreateKeyFile } from '../src/security/vault.ts';

/** How many of each: more than either cache holds, with room for the requests in flight. */
export const FRESH_CREDENTIALS = Math.max(VERIFIED_TOKENS_MAX, API_KEY_CACHE_MAX) + 50;

/** The bench's Cadre keeps its SQLite database and its vault key in its data folder. */
async function withDatabase<T>(dataDir: string, work: (db: Db) => Promise<T>): Promise<T> {
  const db = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'cadre.sqlite') });
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

const part = (text: string) =>
  JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Record<string, unknown>;
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * `count` access tokens like `issued`, each with its own `jti`. They are issued now and last an
 * hour (the provider's last ten minutes), so they outlive the whole bench.
 */
export async function freshTokens(dataDir: string, issued: string, count: number): Promise<string[]> {
  const [headerText, payloadText] = issued.split('.');
  const header = part(headerText!);
  const claims = part(payloadText!);
  const keys = await withDatabase(dataDir, (db) =>
    loadIdentityKeys(db, createVault(loadOrCreateKeyFile(dataDir))),
  );
  const jwk = keys.signing.find((k) => k.kid === header.kid);
  if (!jwk || header.alg !== 'RS256') throw new Error(`no RS256 signing key ${String(header.kid)}`);
  const key = crypto.createPrivateKey({ key: jwk as crypto.JsonWebKey, format: 'jwk' });
  const iat = Math.floor(Date.now() / 1000);
  const head = encode(header);
  return Array.from({ length: count }, () => {
    const input = `${head}.${encode({ ...claims, jti: crypto.randomBytes(32).toString('base64url'), iat, exp: iat + 3600 })}`;
    return `${input}.${crypto.sign('sha256', Buffer.from(input), key).toString('base64url')}`;
  });
}

/**
 * `count` API keys of the user who owns `model` (a key the API made), with its scopes. Their last
 * use is stamped now, so none is due for the once-a-minute last-use write in the next minute:
 * a request checks a key by reading its row and its user, no more.
 */
export async function freshApiKeys(dataDir: string, model: string, count: number): Promise<string[]> {
  const hashOf = apiKeyHasher(loadOrCreateKeyFile(dataDir));
  return withDatabase(dataDir, async (db) => {
    const row = await db.kysely
      .selectFrom('api_keys')
      .selectAll()
      .where('hash', '=', hashOf(model))
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const keys = Array.from({ length: count }, newApiKey);
    const { id: _id, ...copy } = row;
    await db.kysely.transaction().execute(async (trx) => {
      for (let i = 0; i < keys.length; i += 500) {
        await trx
          .insertInto('api_keys')
          .values(
            keys.slice(i, i + 500).map((key) => ({
              ...copy,
              name: 'bench, fresh',
              hash: hashOf(key),
              created_at: now,
              last_used_at: now,
            })),
          )
          .execute();
      }
    });
    return keys;
  });
}

/** Headers carrying `credentials` in turn, one per request, across all of a run's connections. */
export function inTurn(credentials: string[]): () => Record<string, string> {
  let next = 0;
  return () => ({ authorization: `Bearer ${credentials[next++ % credentials.length]!}` });
}
