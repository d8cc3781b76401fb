import type { ExpressionBuilder, JoinBuilder, Kysely, Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database, ServicesTable } from '../../db/schema.ts';
import { serviceValues, syncServiceActions } from './catalog-sync.ts';
import { connectionQueries, recorded, type InTransaction } from './connection-queries.ts';
import type { ActionDefinition, ServiceDefinition } from './provider.ts';

export type { InTransaction } from './connection-queries.ts';

/** Joins the user's own connection to the row's service (nothing when they have none). */
const ownConnection = (userId: number) => (join: JoinBuilder<Database, 'services' | 'connections'>) =>
  join.onRef('connections.service_id', '=', 'services.id').on('connections.user_id', '=', userId);

/**
 * Every query of the tools layer: services and actions here, connections, OAuth states and
 * webhook deliveries in `connection-queries.ts`. Every per-user query names the owner.
 */

const now = () => new Date().toISOString();

export type ServiceRow = Selectable<ServicesTable>;

/** What a user may see: catalog services (no owner) and their own. */
const visibleTo = (userId: number) => (eb: ExpressionBuilder<Database, 'services'>) =>
  eb.or([eb('services.owner_user_id', 'is', null), eb('services.owner_user_id', '=', userId)]);

const queriesOn = (k: Kysely<Database>) => ({ ...catalogQueries(k), ...connectionQueries(k) });

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

function catalogQueries(k: Kysely<Database>) {
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

    /** Upserts a service's actions by (service_id, name); actions no longer listed become deprecated. */
    async syncActions(serviceId: number, actions: ActionDefinition[]) {
      await syncServiceActions(k, new Map([[serviceId, actions]]), now());
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
        .leftJoin('connections', ownConnection(userId))
        .select([
          'services.id',
          'services.name',
          'services.description',
          'services.logo',
          'services.auth_scheme',
          'services.provider',
          'connections.status as connection_status',
          'connections.last_used_at',
          'connections.last_error',
          'connections.last_error_at',
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
        .leftJoin('connections', ownConnection(userId))
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
          'connections.status as connection_status',
          'connections.credentials',
          'connections.last_used_at',
        ])
        .where('actions.id', '=', actionId)
        .where('services.enabled', '=', 1)
        .where(visibleTo(userId))
        .executeTakeFirst();
    },

    /** Deletes one of the user's own services (its actions and connections go with it). */
    async deleteOwnService(serviceId: number, userId: number, record: InTransaction) {
      await recorded(k, record, async (trx) => {
        await trx
          .deleteFrom('services')
          .where((eb) => eb.and({ id: serviceId, owner_user_id: userId }))
          .execute();
      });
    },
  };
}
