import crypto from 'node:crypto';
import {
  API_KEY_PREFIX,
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyCreated,
  type ApiKeyUpdate,
} from '@cadre/contract';
import type { AuthUser } from '../../kernel.ts';
import type { ApiKeyGrant } from '../../http/auth-ports.ts';
import { notFound, ValidationFailure } from '../../http/errors.ts';
import type { RecordAnswer } from '../../http/idempotency.ts';
import { keyedHasher, loadOrCreateKeyFile } from '../../security/vault.ts';
import type { ApiKeysDeps } from './ports.ts';
import { createApiKeysRepository, toApiKey } from './repository.ts';

/**
 * How long a verified key is trusted without reading its row again. A revocation is signalled to
 * every instance at once; this bounds how long one that missed the signal still accepts the key.
 */
export const API_KEY_CACHE_MS = 5_000;
/** Last use is written at most this often per key, so the hot path does not write on every call. */
const LAST_USE_WRITE_INTERVAL_MS = 60_000;
/** Keys the cache holds at most; the oldest entry makes room for a new one. */
export const API_KEY_CACHE_MAX = 10_000;
/** Characters of the key kept for display: the `cadre_` prefix and 6 random characters. */
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;

/** The module's time (milliseconds since the epoch): tests move it past an expiry instead of waiting. */
export interface ApiKeyOptions {
  now?: () => number;
}

export interface ApiKeysService {
  /** Whether a bearer token is an API key (by its prefix) rather than a sign-in token. */
  isApiKey(token: string): boolean;
  /** The key's grant; undefined when it is unknown, revoked or expired, or its user is gone. */
  verify(key: string): Promise<ApiKeyGrant | undefined>;
  list(userId: number): Promise<ApiKey[]>;
  /** `record` stores the answer of an idempotent create in the same transaction as the key. */
  create(user: AuthUser, input: ApiKeyCreate, record?: RecordAnswer<ApiKeyCreated>): Promise<ApiKeyCreated>;
  revoke(user: AuthUser, id: number): Promise<void>;
  /** Sets the web origins the key may be used from; audited, and seen at once on every instance. */
  update(user: AuthUser, id: number, input: ApiKeyUpdate): Promise<ApiKey>;
  /** Whether any key allows the origin: a CORS preflight carries no key. */
  anyAllowsOrigin(origin: string): Promise<boolean>;
}

/** A new key: the prefix and 32 random bytes. */
export const newApiKey = () => `${API_KEY_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;

/** What the table keeps of a key: an HMAC-SHA-256 under a key derived from the vault key `secret`. */
export const apiKeyHasher = (secret: Buffer) => keyedHasher(secret, 'cadre/api-key-hash/v1');

/**
 * Personal API keys (docs/security.md, "API keys"): 32 random bytes, shown once; the table keeps
 * only an HMAC-SHA-256 of the key under a key derived from the vault key, so verifying is one HMAC
 * and one lookup on a unique index, and a stolen table yields no usable key.
 */
export function createApiKeysService(
  deps: ApiKeysDeps,
  { now = Date.now }: ApiKeyOptions = {},
): ApiKeysService {
  const repo = createApiKeysRepository(deps.db);
  const hashOf = apiKeyHasher(deps.config.secretsKey ?? loadOrCreateKeyFile(deps.config.dataDir));
  const cache = new Map<string, { grant: ApiKeyGrant; expiresAt: number; until: number }>();
  deps.db.signals.subscribe('cadre_api_key_revoked', (hash) => cache.delete(hash));
  // A disabled account's keys are refused from the next call (the lookup reads only active users).
  deps.db.signals.subscribe('cadre_user_disabled', (userId) => {
    for (const [hash, entry] of cache) if (String(entry.grant.user.id) === userId) cache.delete(hash);
  });

  const lookup = async (hash: string) => {
    const row = await repo.findByHash(hash);
    if (!row) return undefined;
    const user = await deps.users.byId(row.user_id);
    if (!user) return undefined;
    const at = now();
    if (row.last_used_at === null || Date.parse(row.last_used_at) <= at - LAST_USE_WRITE_INTERVAL_MS) {
      await repo.touch(row.id, new Date(at).toISOString());
    }
    const key = toApiKey(row);
    return {
      grant: {
        keyId: key.id,
        user,
        scopes: key.scopes,
        agentIds: key.agent_ids,
        origins: key.allowed_origins,
      },
      expiresAt: key.expires_at === null ? Infinity : Date.parse(key.expires_at),
      until: at + API_KEY_CACHE_MS,
    };
  };

  return {
    isApiKey: (token) => token.startsWith(API_KEY_PREFIX),

    async verify(key) {
      if (!key.startsWith(API_KEY_PREFIX) || key.length > 200) return undefined;
      const hash = hashOf(key);
      let entry = cache.get(hash);
      if (!entry || entry.until <= now()) {
        cache.delete(hash);
        entry = await lookup(hash);
        if (!entry) return undefined;
        if (cache.size >= API_KEY_CACHE_MAX) cache.delete(cache.keys().next().value as string);
        cache.set(hash, entry);
      }
      return entry.expiresAt > now() ? entry.grant : undefined;
    },

    list: (userId) => repo.list(userId),

    async create(user, input, record) {
      const agentIds = input.agent_ids ? [...new Set(input.agent_ids)] : null;
      const owned = agentIds?.length
        ? new Set((await deps.agents.summaries(user.id)).map((a) => a.id))
        : new Set<number>();
      for (const [i, agentId] of (agentIds ?? []).entries()) {
        if (!owned.has(agentId)) {
          throw new ValidationFailure([
            { loc: ['body', 'agent_ids', i], msg: 'is not one of your agents', type: 'value_error' },
          ]);
        }
      }
      const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
      if (expiresAt && expiresAt.getTime() <= now()) {
        throw new ValidationFailure([
          { loc: ['body', 'expires_at'], msg: 'must be in the future', type: 'value_error' },
        ]);
      }
      const key = newApiKey();
      return deps.db.kysely.transaction().execute(async (trx) => {
        const created = await repo.insert(
          {
            user_id: user.id,
            name: input.name,
            prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
            hash: hashOf(key),
            scopes: JSON.stringify([...new Set(input.scopes)]),
            agent_ids: agentIds === null ? null : JSON.stringify(agentIds),
            allowed_origins: JSON.stringify([...new Set(input.allowed_origins ?? [])]),
            expires_at: expiresAt?.toISOString() ?? null,
            created_at: new Date(now()).toISOString(),
          },
          trx,
        );
        await deps.audit.record(
          {
            userId: user.id,
            action: 'api_key.create',
            objectType: 'api_key',
            objectId: created.id,
            detail: {
              name: created.name,
              scopes: created.scopes,
              agent_ids: created.agent_ids,
              allowed_origins: created.allowed_origins,
            },
          },
          trx,
        );
        const answer = { ...created, key };
        await record?.(trx, answer);
        return answer;
      });
    },

    async update(user, id, input) {
      const origins = [...new Set(input.allowed_origins)];
      const updated = await deps.db.kysely.transaction().execute(async (trx) => {
        const row = await repo.setOrigins(user.id, id, origins, trx);
        if (!row) throw notFound('API key not found');
        await deps.audit.record(
          {
            userId: user.id,
            action: 'api_key.update',
            objectType: 'api_key',
            objectId: id,
            detail: { allowed_origins: origins },
          },
          trx,
        );
        return row;
      });
      // Every instance drops its cached grant, as on revocation: the next call reads the origins.
      cache.delete(updated.hash);
      await deps.db.signals.publish('cadre_api_key_revoked', updated.hash);
      return updated.key;
    },

    anyAllowsOrigin: (origin) => repo.anyAllowsOrigin(origin),

    async revoke(user, id) {
      const hash = await repo.delete(user.id, id);
      if (hash === undefined) throw notFound('API key not found');
      cache.delete(hash);
      await deps.db.signals.publish('cadre_api_key_revoked', hash);
      await deps.audit.record({
        userId: user.id,
        action: 'api_key.revoke',
        objectType: 'api_key',
        objectId: id,
      });
    },
  };
}
