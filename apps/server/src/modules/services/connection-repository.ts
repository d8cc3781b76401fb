import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import { bumpListVersions, inTransaction } from '../../db/list-versions.ts';
import type { Database } from '../../db/schema.ts';
import { providerServiceIds, type ConnectionStore } from '../tools/index.ts';

/** Runs inside the write's transaction (the audit record), so both commit or neither does. */
export type InTransaction = (trx: Kysely<Database>) => Promise<void>;

/** Runs the write, then the caller's record of it, in one transaction. */
export async function recorded(
  k: Kysely<Database>,
  record: InTransaction,
  write: (trx: Kysely<Database>) => Promise<unknown>,
) {
  await k.transaction().execute(async (trx) => {
    await write(trx);
    await record(trx);
  });
}

const now = () => new Date().toISOString();

/** The user's connection to a service (one per pair). */
const ofUser = (userId: number, serviceId: number) => (eb: ExpressionBuilder<Database, 'connections'>) =>
  eb.and({ user_id: userId, service_id: serviceId });

/**
 * The services module's tables: the users' connections to services and the OAuth states of
 * connections in progress. Every per-user query names the owner. A write that can change whether a
 * connection is active raises its user's agent list version in its transaction (the list says
 * which tools need reconnecting; db/list-versions.ts).
 */
function connectionQueries(k: Kysely<Database>) {
  return {
    findConnection(userId: number, serviceId: number) {
      return k.selectFrom('connections').selectAll().where(ofUser(userId, serviceId)).executeTakeFirst();
    },

    /** Every connection of the user, with its sealed credentials (to revoke them all). */
    listConnections(userId: number) {
      return k
        .selectFrom('connections')
        .select(['service_id', 'credentials', 'external_id'])
        .where('user_id', '=', userId)
        .execute();
    },

    /** The state of each of the user's connections, as the services list shows it. */
    listConnectionStates(userId: number) {
      return k
        .selectFrom('connections')
        .select(['service_id', 'status', 'last_used_at', 'last_error', 'last_error_at'])
        .where('user_id', '=', userId)
        .execute();
    },

    /**
     * Creates or replaces the user's one connection to a service; `record` commits with it. New
     * credentials start without the old ones' last error.
     */
    async saveConnection(
      userId: number,
      serviceId: number,
      values: { status: string; external_id: string | null; credentials: string | null },
      record?: InTransaction,
    ) {
      const ts = now();
      await inTransaction(k, async (trx) => {
        await trx
          .insertInto('connections')
          .values({ user_id: userId, service_id: serviceId, created_at: ts, updated_at: ts, ...values })
          .onConflict((oc) =>
            oc
              .columns(['user_id', 'service_id'])
              .doUpdateSet({ ...values, updated_at: ts, last_error: null, last_error_at: null }),
          )
          .execute();
        await bumpListVersions(trx, [userId]);
        await record?.(trx);
      });
    },

    async updateConnection(
      userId: number,
      serviceId: number,
      values: { status?: string; credentials?: string | null },
    ) {
      await inTransaction(k, async (trx) => {
        await trx
          .updateTable('connections')
          .set({ ...values, updated_at: now() })
          .where(ofUser(userId, serviceId))
          .execute();
        if (values.status !== undefined) await bumpListVersions(trx, [userId]);
      });
    },

    /**
     * A tool call used the connection at `at`, in one statement: `error` is what it failed with,
     * if it failed for a reason of the connection's; `change` is new sealed credentials (a refreshed
     * token) or a status (a refused one), the only parts that count as a change (`updated_at`).
     */
    async recordUse(
      userId: number,
      serviceId: number,
      use: { at: string; error?: string; change?: { status?: string; credentials?: string } },
    ) {
      const { at, error, change } = use;
      const write = (q: Kysely<Database>) =>
        q
          .updateTable('connections')
          .set({
            last_used_at: at,
            ...(error !== undefined && { last_error: error, last_error_at: at }),
            ...(change && { ...change, updated_at: now() }),
          })
          .where(ofUser(userId, serviceId))
          .execute();
      // Most uses change no status: one statement, as before, on the path of every tool call.
      if (change?.status === undefined) await write(k);
      else
        await inTransaction(k, async (trx) => {
          await write(trx);
          await bumpListVersions(trx, [userId]);
        });
    },

    async deleteConnection(userId: number, serviceId: number, record: InTransaction) {
      await recorded(k, record, async (trx) => {
        await trx.deleteFrom('connections').where(ofUser(userId, serviceId)).execute();
        await bumpListVersions(trx, [userId]);
      });
    },

    /** Marks connections with a provider's external id (a webhook names the account, not the user). */
    setStatusByExternalId(provider: string, externalId: string, status: string) {
      return inTransaction(k, async (trx) => {
        const changed = await trx
          .updateTable('connections')
          .set({ status, updated_at: now() })
          .where('external_id', '=', externalId)
          .where('service_id', 'in', providerServiceIds(trx, provider))
          .returning(['user_id', 'service_id'])
          .execute();
        await bumpListVersions(
          trx,
          changed.map((row) => row.user_id),
        );
        return changed;
      });
    },

    /** The connections (user and service) that a provider's external account id belongs to. */
    findByExternalId(provider: string, externalId: string) {
      return k
        .selectFrom('connections')
        .select(['user_id', 'service_id'])
        .where('external_id', '=', externalId)
        .where('service_id', 'in', providerServiceIds(k, provider))
        .execute();
    },

    // OAuth states: only a hash of the state is stored, with the user, the service and the sealed verifier.

    async insertOAuthState(row: {
      state_hash: string;
      user_id: number;
      service_id: number;
      verifier: string;
      binding_hash: string;
      expires_at: string;
    }) {
      await k
        .insertInto('oauth_states')
        .values({ ...row, created_at: now() })
        .execute();
    },

    /** Deletes and returns a state in one step, so a state is used at most once even under races. */
    takeOAuthState(stateHash: string) {
      return k
        .deleteFrom('oauth_states')
        .where('state_hash', '=', stateHash)
        .returningAll()
        .executeTakeFirst();
    },

    async purgeExpiredOAuthStates() {
      await k.deleteFrom('oauth_states').where('expires_at', '<', now()).execute();
    },
  };
}

export type ConnectionQueries = ReturnType<typeof connectionQueries>;

export interface ConnectionRepository extends ConnectionQueries {
  /** Runs `work` in one transaction; `trx` is for what commits with it (the audit record). */
  transaction<T>(work: (repo: ConnectionQueries, trx: Kysely<Database>) => Promise<T>): Promise<T>;
}

export function createConnectionRepository(db: Pick<Db, 'kysely'>): ConnectionRepository {
  const k = db.kysely;
  return {
    ...connectionQueries(k),
    transaction: (work) => k.transaction().execute((trx) => work(connectionQueries(trx), trx)),
  };
}

/** The port the tools layer runs actions and applies webhooks through (`tools/connection-port.ts`). */
export const createConnectionStore = (db: Pick<Db, 'kysely'>): ConnectionStore =>
  createConnectionRepository(db);
