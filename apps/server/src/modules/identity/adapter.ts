import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Db } from '../../db/database.ts';

/** How often (in writes per process) expired rows are swept; reads ignore them in between. */
const SWEEP_EVERY = 200;
let writesSinceSweep = 0;

const nowIso = () => new Date().toISOString();

/**
 * oidc-provider's storage on Kysely, one table for every model (`kind` is the model name). Rows
 * carry their expiry; reads treat an expired row as absent and writes sweep expired rows now and
 * then, so nothing needs a scheduler. Works the same on SQLite and PostgreSQL.
 */
export function kyselyAdapterFactory(db: Db) {
  return class KyselyAdapter implements Adapter {
    constructor(readonly name: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000).toISOString() : null;
      const row = {
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        uid: payload.uid ?? null,
        user_code: payload.userCode ?? null,
        expires_at: expiresAt,
      };
      await db.kysely
        .insertInto('idp_payloads')
        .values({ kind: this.name, id, consumed_at: null, ...row })
        .onConflict((oc) => oc.columns(['kind', 'id']).doUpdateSet(row))
        .execute();
      if (++writesSinceSweep >= SWEEP_EVERY) {
        writesSinceSweep = 0;
        await sweepExpired(db);
      }
    }

    find(id: string) {
      return this.findWhere('id', id);
    }

    findByUid(uid: string) {
      return this.findWhere('uid', uid);
    }

    findByUserCode(userCode: string) {
      return this.findWhere('user_code', userCode);
    }

    private async findWhere(
      column: 'id' | 'uid' | 'user_code',
      value: string,
    ): Promise<AdapterPayload | undefined> {
      const row = await db.kysely
        .selectFrom('idp_payloads')
        .select(['payload', 'consumed_at', 'expires_at'])
        .where('kind', '=', this.name)
        .where(column, '=', value)
        .executeTakeFirst();
      if (!row) return undefined;
      if (row.expires_at !== null && row.expires_at <= nowIso()) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      // oidc-provider detects reuse (a replayed refresh token or code) through `consumed`.
      return row.consumed_at
        ? { ...payload, consumed: Math.floor(Date.parse(row.consumed_at) / 1000) }
        : payload;
    }

    /**
     * Marks a code or refresh token used, atomically: of several requests that read it unused at
     * the same moment (on one instance or several), only the one whose update changes the row
     * goes on to get tokens. A loser gets invalid_grant; for a refresh token it is a replay, so
     * the whole grant (every token of that sign-in) is revoked, as sequential reuse would do.
     */
    async consume(id: string): Promise<void> {
      const won = await db.kysely
        .updateTable('idp_payloads')
        .set({ consumed_at: nowIso() })
        .where('kind', '=', this.name)
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .returning('grant_id')
        .executeTakeFirst();
      if (won) return;
      if (this.name === 'RefreshToken') {
        const row = await db.kysely
          .selectFrom('idp_payloads')
          .select('grant_id')
          .where('kind', '=', this.name)
          .where('id', '=', id)
          .executeTakeFirst();
        if (row?.grant_id) await revokeGrant(db, row.grant_id);
      }
      throw new errors.InvalidGrant('grant request is invalid');
    }

    async destroy(id: string): Promise<void> {
      await db.kysely.deleteFrom('idp_payloads').where('kind', '=', this.name).where('id', '=', id).execute();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.kysely
        .deleteFrom('idp_payloads')
        .where('kind', '=', this.name)
        .where('grant_id', '=', grantId)
        .execute();
    }
  };
}

/** Deletes a grant and every token, code and session link issued under it. */
async function revokeGrant(db: Db, grantId: string) {
  await db.kysely
    .deleteFrom('idp_payloads')
    .where((eb) =>
      eb.or([eb('grant_id', '=', grantId), eb.and([eb('kind', '=', 'Grant'), eb('id', '=', grantId)])]),
    )
    .execute();
}

/** Deletes every row whose expiry has passed. */
export async function sweepExpired(db: Db) {
  await db.kysely.deleteFrom('idp_payloads').where('expires_at', '<=', nowIso()).execute();
}
