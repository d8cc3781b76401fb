import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { UserDataOwner } from '../kernel.ts';
import type { Vault } from '../security/vault.ts';
import { ValidationFailure } from './errors.ts';

/** How long a stored answer is replayed; older keys are swept and may be reused. */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;
const HEADER = 'idempotency-key';

/** Stores the answer of an idempotent create inside the create's own transaction. */
export type RecordAnswer<T> = (trx: Kysely<Database>, body: T) => Promise<void>;

interface Idempotency<T> {
  /** The first answer to this key, when the request is a retry: send it as it is. */
  replay?: { status: number; body: unknown };
  /** Pass to the write: it records the answer in the write's transaction (absent without a key). */
  record?: RecordAnswer<T>;
  /** After a failed write: the answer a concurrent request with the same key committed, if any. */
  winner(): Promise<{ status: number; body: unknown } | undefined>;
}

/**
 * The request as the key remembers it; `secretFields` of the body count only by being there. A body
 * that is not JSON (a multipart upload) is stood for by the route's `content` digest.
 */
const hashOf = (request: FastifyRequest, secretFields: readonly string[], content?: string) => {
  let body = content === undefined ? (request.body ?? null) : { content };
  if (secretFields.length > 0 && body && typeof body === 'object') {
    const shown: Record<string, unknown> = { ...(body as Record<string, unknown>) };
    for (const field of secretFields) if (field in shown) shown[field] = '[secret]';
    body = shown;
  }
  return crypto
    .createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url ?? request.url}\n${JSON.stringify(body)}`)
    .digest('hex');
};

interface IdempotencyOptions {
  /** A key the route derives from another header (a signed call's `webhook-id`) instead. */
  derived?: { key: string; header: string };
  /** The key is one caller's of several sharing `userId` (a copilot's site visitor): kept apart. */
  scope?: string;
  /**
   * Body fields holding secrets (a token): left out of the stored hash, which must not become a
   * way to test guesses of them. A retry differing only in them counts as the same request.
   */
  secretFields?: readonly string[];
  /**
   * For a body fastify does not parse (an upload read part by part): a digest of everything that
   * makes the request what it is, path parameters included (the hash names the route, not the path).
   */
  content?: string;
  /**
   * Answer fields shown only once (a new API key): kept sealed by the vault in the stored answer,
   * opened for the replay, so the table never holds them in clear.
   */
  sealed?: { vault: Vault; fields: readonly string[] };
}

/** The answer as stored (`to: 'seal'`) or as replayed (`to: 'open'`): only the sealed fields change. */
function withSealedFields(body: unknown, sealed: IdempotencyOptions['sealed'], to: 'seal' | 'open') {
  if (!sealed || typeof body !== 'object' || body === null) return body;
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const field of sealed.fields) {
    const value = copy[field];
    if (typeof value === 'string')
      copy[field] = to === 'seal' ? sealed.vault.seal(value) : sealed.vault.open(value);
  }
  return copy;
}

/**
 * `Idempotency-Key` for create endpoints (IETF draft-ietf-httpapi-idempotency-key-header): a retry
 * with the same key and the same request gets the first answer; the same key with another request
 * is refused with 422. The answer is committed together with the write, so there is no window in
 * which the write exists but its key does not: a retry after a crash either replays the answer or,
 * if the write never committed, performs it once. Two concurrent requests with one key both run;
 * the loser's insert of the key fails, its whole transaction rolls back, and it answers with the
 * winner's result. `createOnce` is the usual way in; a create whose answer is not the stored one
 * (a chat turn answers with a stream) uses this directly.
 */
export async function idempotencyFor<T>(
  db: Db,
  request: FastifyRequest,
  userId: number,
  status: number,
  options: IdempotencyOptions,
): Promise<Idempotency<T>> {
  const { derived } = options;
  // The route's `idempotentCreateHeadersSchema` has checked the key's form.
  const given = derived?.key ?? request.headers[HEADER];
  if (typeof given !== 'string') return { winner: async () => undefined };
  const key = options.scope === undefined ? given : `${options.scope}:${given}`;
  const requestHash = hashOf(request, options.secretFields ?? [], options.content);
  const stored = async () => {
    const row = await db.kysely
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'status', 'response'])
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .where('created_at', '>', new Date(Date.now() - IDEMPOTENCY_KEY_TTL_HOURS * 3_600_000).toISOString())
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.request_hash !== requestHash) {
      throw new ValidationFailure([
        {
          loc: ['headers', derived?.header ?? HEADER],
          msg: 'was already used with a different request; use a new key for a new request',
          type: 'idempotency_key_reused',
        },
      ]);
    }
    return {
      status: row.status,
      body: withSealedFields(JSON.parse(row.response) as unknown, options.sealed, 'open'),
    };
  };
  const replay = await stored();
  if (replay) return { replay, winner: async () => replay };
  return {
    record: async (trx, body) => {
      const now = new Date().toISOString();
      // A key older than the TTL may be taken again: drop the expired row first.
      await trx
        .deleteFrom('idempotency_keys')
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .where('created_at', '<=', new Date(Date.now() - IDEMPOTENCY_KEY_TTL_HOURS * 3_600_000).toISOString())
        .execute();
      await trx
        .insertInto('idempotency_keys')
        .values({
          user_id: userId,
          key,
          request_hash: requestHash,
          status,
          response: JSON.stringify(withSealedFields(body, options.sealed, 'seal')),
          created_at: now,
        })
        .execute();
    },
    winner: () => stored().catch(() => undefined),
  };
}

/**
 * Runs an idempotent create and sends its answer with `status`: for a retry, the first answer and
 * no second write; after a failed write, the answer of a concurrent request with the same key when
 * that one won (not a second row), else the failure. `create` passes `record` to its transaction.
 */
export async function createOnce<T>(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  { userId, status, ...options }: IdempotencyOptions & { userId: number; status: number },
  create: (record: RecordAnswer<T> | undefined) => Promise<T>,
): Promise<FastifyReply> {
  const idempotency = await idempotencyFor<T>(db, request, userId, status, options);
  if (idempotency.replay) return reply.code(idempotency.replay.status).send(idempotency.replay.body);
  try {
    return reply.code(status).send(await create(idempotency.record));
  } catch (err) {
    const winner = await idempotency.winner();
    if (winner) return reply.code(winner.status).send(winner.body);
    throw err;
  }
}

/** Deletes answers past their TTL; runs now and then, like the other sweeps. */
export async function sweepIdempotencyKeys(db: Db) {
  await db.kysely
    .deleteFrom('idempotency_keys')
    .where('created_at', '<=', new Date(Date.now() - IDEMPOTENCY_KEY_TTL_HOURS * 3_600_000).toISOString())
    .execute();
}

/**
 * The stored answers of the user's create requests (P1): deleted with the user. They are not
 * exported: each is a copy, kept at most IDEMPOTENCY_KEY_TTL_HOURS, of a row the export has.
 */
export function idempotencyUserData(): UserDataOwner {
  return {
    name: 'idempotency',
    exportFor: async () => ({}),
    async deleteFor(user, trx) {
      await trx.deleteFrom('idempotency_keys').where('user_id', '=', user.id).execute();
    },
  };
}
