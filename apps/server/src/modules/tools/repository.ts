import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database, ServicesTable } from '../../db/schema.ts';
import type { ActionDefinition, ServiceDefinition } from './provider.ts';

/**
 * Every query of the tools layer: services, actions, connections, OAuth states and webhook
 * deliveries. Every per-user query names the owner.
 */

const now = () => new Date().toISOString();

export type ServiceRow = Selectable<ServicesTable>;

/** Runs inside the write's transaction (the audit record), so both commit or neither does. */
export type InTransaction = (trx: Kysely<Database>) => Promise<void>;

/** The columns a (re-)synced service definition sets, on insert and on conflict alike. */
export const serviceValues = (def: ServiceDefinition, ts: string) => ({
  name: def.name,
  description: def.description,
  logo: def.logo,
  auth_scheme: def.authScheme,
  enabled: 1,
  metadata: JSON.stringify(def.metadata ?? {}),
  updated_at: ts,
});

/** The columns a (re-)synced action definition sets, on insert and on conflict alike. */
export const actionValues = (def: ActionDefinition, ts: string) => ({
  display_name: def.displayName,
  description: def.description,
  input_schema: JSON.stringify(def.inputSchema),
  effect: def.effect,
  version: def.version ?? null,
  deprecated: 0,
  updated_at: ts,
});

/** What a user may see: catalog services (no owner) and their own. */
const visibleTo = (userId: number) => (eb: ExpressionBuilder<Database, 'services'>) =>
  eb.or([eb('services.owner_user_id', 'is', null), eb('services.owner_user_id', '=', userId)]);

export type ToolsQueries = ReturnType<typeof queriesOn>;

export interface ToolsRepository extends ToolsQueries {
  /** Runs `work` in one transaction; `trx` is for what commits with it (the audit record). */
  transaction<T>(work: (repo: ToolsQueries, trx: Kysely<Database>) => Promise<T>): Promise<T>;
}

export function createToolsRepository(db: Db): ToolsRepository {
  const k = db.kysely;
  return {
    ...queriesOn(k),
    transaction: (work) => k.transaction().execute((trx) => work(queriesOn(trx), trx)),
  };
}

function queriesOn(k: Kysely<Database>) {
  /** The ids of a provider's services, as a subquery, so they never travel to JS and back. */
  const providerServiceIds = (provider: string) =>
    k.selectFrom('services').select('id').where('provider', '=', provider);

  return {
    /**
     * Upserts a service by (provider, provider_key) and returns its stable id: a catalog service
     * when ownerUserId is null, else one only its owner sees (a user's own MCP server). Each kind
     * has its own partial unique index, so the conflict target follows the owner.
     */
    async upsertService(provider: string, ownerUserId: number | null, def: ServiceDefinition) {
      const values = serviceValues(def, now());
      const row = await k
        .insertInto('services')
        .values({
          provider,
          provider_key: def.key,
          owner_user_id: ownerUserId,
          created_at: values.updated_at,
          ...values,
        })
        .onConflict((oc) =>
          (ownerUserId === null
            ? oc.columns(['provider', 'provider_key']).where('owner_user_id', 'is', null)
            : oc.columns(['owner_user_id', 'provider', 'provider_key']).where('owner_user_id', 'is not', null)
          ).doUpdateSet(values),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Catalog services of a provider that it no longer lists are disabled (never deleted: ids stay). */
    async disableMissingServices(provider: string, keptKeys: string[]) {
      let query = k
        .updateTable('services')
        .set({ enabled: 0, updated_at: now() })
        .where('provider', '=', provider)
        .where('owner_user_id', 'is', null)
        .where('enabled', '=', 1);
      if (keptKeys.length) query = query.where('provider_key', 'not in', keptKeys);
      await query.execute();
    },

    /** Replaces a service's provider settings (e.g. when its actions were last listed). */
    async setServiceMetadata(serviceId: number, metadata: Record<string, unknown>) {
      await k
        .updateTable('services')
        .set({ metadata: JSON.stringify(metadata) })
        .where('id', '=', serviceId)
        .execute();
    },

    /** Upserts a service's actions by (service_id, name); actions no longer listed become deprecated. */
    async syncActions(serviceId: number, actions: ActionDefinition[]) {
      const ts = now();
      for (const action of actions) {
        const values = actionValues(action, ts);
        await k
          .insertInto('actions')
          .values({ service_id: serviceId, name: action.name, created_at: ts, ...values })
          .onConflict((oc) => oc.columns(['service_id', 'name']).doUpdateSet(values))
          .execute();
      }
      let stale = k
        .updateTable('actions')
        .set({ deprecated: 1, updated_at: ts })
        .where('service_id', '=', serviceId)
        .where('deprecated', '=', 0);
      if (actions.length)
        stale = stale.where(
          'name',
          'not in',
          actions.map((a) => a.name),
        );
      await stale.execute();
    },

    /** A service the user may see: a catalog service, or one they own. Disabled ones are hidden. */
    findVisibleService(serviceId: number, userId: number) {
      return k
        .selectFrom('services')
        .selectAll()
        .where('id', '=', serviceId)
        .where('enabled', '=', 1)
        .where(visibleTo(userId))
        .executeTakeFirst();
    },

    /** The services the user may see, each with the status of the user's connection (if any). */
    listVisibleServices(userId: number) {
      return k
        .selectFrom('services')
        .leftJoin('connections', (join) =>
          join.onRef('connections.service_id', '=', 'services.id').on('connections.user_id', '=', userId),
        )
        .select([
          'services.id',
          'services.name',
          'services.description',
          'services.logo',
          'services.auth_scheme',
          'services.provider',
          'connections.status as connection_status',
        ])
        .where('services.enabled', '=', 1)
        .where(visibleTo(userId))
        .orderBy('services.name')
        .orderBy('services.id')
        .execute();
    },

    listLiveActions(serviceId: number) {
      return k
        .selectFrom('actions')
        .selectAll()
        .where('service_id', '=', serviceId)
        .where('deprecated', '=', 0)
        .orderBy('name')
        .execute();
    },

    /** An action the user may run, with its service and the user's connection (if any), in one query. */
    findActionForUser(actionId: number, userId: number) {
      return k
        .selectFrom('actions')
        .innerJoin('services', 'services.id', 'actions.service_id')
        .leftJoin('connections', (join) =>
          join.onRef('connections.service_id', '=', 'services.id').on('connections.user_id', '=', userId),
        )
        .select([
          'actions.id as action_id',
          'actions.name as action_name',
          'actions.version',
          'actions.deprecated',
          'services.id as service_id',
          'services.name as service_name',
          'services.provider',
          'services.provider_key',
          'services.auth_scheme',
          'services.metadata',
          'connections.status as connection_status',
          'connections.credentials',
        ])
        .where('actions.id', '=', actionId)
        .where('services.enabled', '=', 1)
        .where(visibleTo(userId))
        .executeTakeFirst();
    },

    /** Deletes one of the user's own services (its actions and connections go with it). */
    async deleteOwnService(serviceId: number, userId: number, record: InTransaction) {
      await k.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('services')
          .where('id', '=', serviceId)
          .where('owner_user_id', '=', userId)
          .execute();
        await record(trx);
      });
    },

    // Connections

    findConnection(userId: number, serviceId: number) {
      return k
        .selectFrom('connections')
        .selectAll()
        .where('user_id', '=', userId)
        .where('service_id', '=', serviceId)
        .executeTakeFirst();
    },

    /** Every connection of the user, with its service row. */
    listConnections(userId: number) {
      return k
        .selectFrom('connections')
        .innerJoin('services', 'services.id', 'connections.service_id')
        .selectAll('services')
        .select(['connections.credentials as connection_credentials', 'connections.external_id'])
        .where('connections.user_id', '=', userId)
        .execute();
    },

    /** Creates or replaces the user's one connection to a service; `record` commits with it. */
    async saveConnection(
      userId: number,
      serviceId: number,
      values: { status: string; external_id: string | null; credentials: string | null },
      record?: InTransaction,
    ) {
      const ts = now();
      const upsert = (q: Kysely<Database>) =>
        q
          .insertInto('connections')
          .values({ user_id: userId, service_id: serviceId, created_at: ts, updated_at: ts, ...values })
          .onConflict((oc) =>
            oc.columns(['user_id', 'service_id']).doUpdateSet({ ...values, updated_at: ts }),
          )
          .execute();
      if (!record) return void (await upsert(k));
      await k.transaction().execute(async (trx) => {
        await upsert(trx);
        await record(trx);
      });
    },

    async updateConnection(
      userId: number,
      serviceId: number,
      values: { status?: string; credentials?: string | null },
    ) {
      await k
        .updateTable('connections')
        .set({ ...values, updated_at: now() })
        .where('user_id', '=', userId)
        .where('service_id', '=', serviceId)
        .execute();
    },

    async deleteConnection(userId: number, serviceId: number, record: InTransaction) {
      await k.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('connections')
          .where('user_id', '=', userId)
          .where('service_id', '=', serviceId)
          .execute();
        await record(trx);
      });
    },

    /** Marks connections with a provider's external id (a webhook names the account, not the user). */
    setStatusByExternalId(provider: string, externalId: string, status: string) {
      return k
        .updateTable('connections')
        .set({ status, updated_at: now() })
        .where('external_id', '=', externalId)
        .where('service_id', 'in', providerServiceIds(provider))
        .returning(['user_id', 'service_id'])
        .execute();
    },

    /** The connections (user and service) that a provider's external account id belongs to. */
    findByExternalId(provider: string, externalId: string) {
      return k
        .selectFrom('connections')
        .select(['user_id', 'service_id'])
        .where('external_id', '=', externalId)
        .where('service_id', 'in', providerServiceIds(provider))
        .execute();
    },

    async hasProviderServices(provider: string) {
      return !!(await providerServiceIds(provider).limit(1).executeTakeFirst());
    },

    // OAuth states: only a hash of the state is stored, with the user, the service and the sealed verifier.

    async insertOAuthState(row: {
      state_hash: string;
      user_id: number;
      service_id: number;
      verifier: string;
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

    /** Records a webhook delivery id; false when it was seen before (a replay is a no-op). */
    async recordWebhookDelivery(provider: string, id: string): Promise<boolean> {
      const result = await k
        .insertInto('webhook_deliveries')
        .values({ id: `${provider}:${id}`, provider, received_at: now() })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
  };
}
