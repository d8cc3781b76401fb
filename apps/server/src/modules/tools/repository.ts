import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { bumpListVersions, inTransaction } from '../../db/list-versions.ts';
import type { Database, ServicesTable } from '../../db/schema.ts';
import { serviceValues, syncServiceActions } from './catalog-sync.ts';
import type { ActionDefinition, ServiceDefinition } from './provider.ts';
import { providerServiceIds } from './shared-sql.ts';

/**
 * Every query on the tools module's tables: the catalog (services and actions) and the webhook
 * deliveries seen. Other modules use these tables through `catalog.ts` and `shared-sql.ts` only
 * (docs/architecture.md, table ownership); every per-user query names the owner.
 */

const now = () => new Date().toISOString();

export type ServiceRow = Selectable<ServicesTable>;

/** A tool's stable name on any server: provider, service key and action name (agent export). */
export interface ActionKey {
  provider: string;
  service_key: string;
  tool_name: string;
}

/** What a user may see: catalog services (no owner) and their own. */
const visibleTo = (userId: number) => (eb: ExpressionBuilder<Database, 'services'>) =>
  eb.or([eb('services.owner_user_id', 'is', null), eb('services.owner_user_id', '=', userId)]);

export type ToolsRepository = ReturnType<typeof catalogQueries>;

/** The queries on `db`, or on an open transaction's `Kysely` (a write that commits with the caller's). */
export function createToolsRepository(db: Pick<Db, 'kysely'>): ToolsRepository {
  return catalogQueries(db.kysely);
}

function catalogQueries(k: Kysely<Database>) {
  /** Actions joined to their service, of the services the user may see; the caller selects. */
  const actionsVisibleTo = (userId: number) =>
    k
      .selectFrom('actions')
      .innerJoin('services', 'services.id', 'actions.service_id')
      .where(visibleTo(userId));

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

    /** Replaces a service's provider settings (e.g. when its actions were last listed). */
    async setServiceMetadata(serviceId: number, metadata: Record<string, unknown>) {
      await k
        .updateTable('services')
        .set({ metadata: JSON.stringify(metadata) })
        .where('id', '=', serviceId)
        .execute();
    },

    /**
     * Upserts a service's actions by (service_id, name); actions no longer listed become
     * deprecated. Answers whether anything changed (the caller raises the list versions).
     */
    syncActions(serviceId: number, actions: ActionDefinition[]) {
      return syncServiceActions(k, new Map([[serviceId, actions]]), now());
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

    /** The services the user may see, by name (a user's connections to them are the services module's). */
    listVisibleServices(userId: number) {
      return k
        .selectFrom('services')
        .select(['id', 'name', 'description', 'logo', 'auth_scheme', 'provider'])
        .where('services.enabled', '=', 1)
        .where(visibleTo(userId))
        .orderBy('services.name')
        .orderBy('services.id')
        .execute();
    },

    /** The services with these ids, whatever their owner or state (the user's own connections name them). */
    servicesByIds(ids: number[]) {
      if (!ids.length) return Promise.resolve([]);
      return k.selectFrom('services').selectAll().where('id', 'in', ids).execute();
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

    /** An action the user may run, with its service, in one query. */
    findVisibleAction(actionId: number, userId: number) {
      return actionsVisibleTo(userId)
        .select([
          'actions.id as action_id',
          'actions.name as action_name',
          'actions.display_name',
          'actions.version',
          'actions.deprecated',
          'services.id as service_id',
          'services.name as service_name',
          'services.provider',
          'services.provider_key',
          'services.auth_scheme',
          'services.metadata',
        ])
        .where('actions.id', '=', actionId)
        .where('services.enabled', '=', 1)
        .executeTakeFirst();
    },

    /** The subset of `ids` naming actions the user may attach: catalog services or their own. */
    visibleActions(userId: number, ids: number[]) {
      if (!ids.length) return Promise.resolve([]);
      return actionsVisibleTo(userId)
        .select(['actions.id', 'actions.version'])
        .where('actions.id', 'in', ids)
        .execute();
    },

    /**
     * The live actions the user may attach (catalog services or their own) that match the keys,
     * each with its service. A key no such action has is simply absent from the answer.
     */
    findLiveActionsByKeys(userId: number, keys: ActionKey[]) {
      if (!keys.length) return Promise.resolve([]);
      return actionsVisibleTo(userId)
        .select([
          'actions.id',
          'actions.version',
          'actions.name as tool_name',
          'services.id as service_id',
          'services.provider',
          'services.provider_key as service_key',
        ])
        .where('actions.deprecated', '=', 0)
        .where((eb) =>
          eb.or(
            keys.map((t) =>
              eb.and([
                eb('services.provider', '=', t.provider),
                eb('services.provider_key', '=', t.service_key),
                eb('actions.name', '=', t.tool_name),
              ]),
            ),
          ),
        )
        .orderBy('actions.id')
        .execute();
    },

    /**
     * Deletes one of the user's own services; its actions, their places on agents, and connections
     * to it go with it (cascade), so the user's agent list version goes up with it.
     */
    async deleteOwnService(serviceId: number, userId: number) {
      await inTransaction(k, async (trx) => {
        await trx
          .deleteFrom('services')
          .where((eb) => eb.and({ id: serviceId, owner_user_id: userId }))
          .execute();
        await bumpListVersions(trx, [userId]);
      });
    },

    async hasProviderServices(provider: string) {
      return !!(await providerServiceIds(k, provider).limit(1).executeTakeFirst());
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
