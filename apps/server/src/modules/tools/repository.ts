import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ServicesTable } from '../../db/schema.ts';
import type { ActionDefinition, ServiceDefinition } from './provider.ts';

/** Services, actions, connections and OAuth states. Every per-user query names the owner. */

const now = () => new Date().toISOString();

export type ServiceRow = Selectable<ServicesTable>;

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

/**
 * Upserts a service by (provider, provider_key) and returns its stable id: a catalog service when
 * ownerUserId is null, else one only its owner sees (a user's own MCP server). Each kind has its
 * own partial unique index, so the conflict target follows the owner.
 */
export async function upsertService(
  db: Db,
  provider: string,
  ownerUserId: number | null,
  def: ServiceDefinition,
): Promise<number> {
  const ts = now();
  const values = serviceValues(def, ts);
  const row = await db.kysely
    .insertInto('services')
    .values({ provider, provider_key: def.key, owner_user_id: ownerUserId, created_at: ts, ...values })
    .onConflict((oc) =>
      (ownerUserId === null
        ? oc.columns(['provider', 'provider_key']).where('owner_user_id', 'is', null)
        : oc.columns(['owner_user_id', 'provider', 'provider_key']).where('owner_user_id', 'is not', null)
      ).doUpdateSet(values),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Catalog services of a provider that it no longer lists are disabled (never deleted: ids stay). */
export async function disableMissingServices(db: Db, provider: string, keptKeys: string[]) {
  let query = db.kysely
    .updateTable('services')
    .set({ enabled: 0, updated_at: now() })
    .where('provider', '=', provider)
    .where('owner_user_id', 'is', null)
    .where('enabled', '=', 1);
  if (keptKeys.length) query = query.where('provider_key', 'not in', keptKeys);
  await query.execute();
}

/** Upserts a service's actions by (service_id, name); actions no longer listed become deprecated. */
export async function syncActions(db: Db, serviceId: number, actions: ActionDefinition[]) {
  const ts = now();
  for (const action of actions) {
    const values = actionValues(action, ts);
    await db.kysely
      .insertInto('actions')
      .values({ service_id: serviceId, name: action.name, created_at: ts, ...values })
      .onConflict((oc) => oc.columns(['service_id', 'name']).doUpdateSet(values))
      .execute();
  }
  let stale = db.kysely
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
}

/** A service the user may see: a catalog service, or one they own. Disabled ones are hidden. */
export async function findVisibleService(db: Db, serviceId: number, userId: number) {
  return db.kysely
    .selectFrom('services')
    .selectAll()
    .where('id', '=', serviceId)
    .where('enabled', '=', 1)
    .where((eb) => eb.or([eb('owner_user_id', 'is', null), eb('owner_user_id', '=', userId)]))
    .executeTakeFirst();
}

export async function listVisibleServices(db: Db, userId: number) {
  return db.kysely
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
    .where((eb) =>
      eb.or([eb('services.owner_user_id', 'is', null), eb('services.owner_user_id', '=', userId)]),
    )
    .orderBy('services.name')
    .orderBy('services.id')
    .execute();
}

export async function listLiveActions(db: Db, serviceId: number) {
  return db.kysely
    .selectFrom('actions')
    .selectAll()
    .where('service_id', '=', serviceId)
    .where('deprecated', '=', 0)
    .orderBy('name')
    .execute();
}

/** An action the user may run, with its service and the user's connection (if any), in one query. */
export async function findActionForUser(db: Db, actionId: number, userId: number) {
  return db.kysely
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
    .where((eb) =>
      eb.or([eb('services.owner_user_id', 'is', null), eb('services.owner_user_id', '=', userId)]),
    )
    .executeTakeFirst();
}

// Connections

export async function findConnection(db: Db, userId: number, serviceId: number) {
  return db.kysely
    .selectFrom('connections')
    .selectAll()
    .where('user_id', '=', userId)
    .where('service_id', '=', serviceId)
    .executeTakeFirst();
}

/** Creates or replaces the user's one connection to a service. */
export async function saveConnection(
  db: Db,
  userId: number,
  serviceId: number,
  values: { status: string; external_id: string | null; credentials: string | null },
) {
  const ts = now();
  await db.kysely
    .insertInto('connections')
    .values({ user_id: userId, service_id: serviceId, created_at: ts, updated_at: ts, ...values })
    .onConflict((oc) => oc.columns(['user_id', 'service_id']).doUpdateSet({ ...values, updated_at: ts }))
    .execute();
}

export async function updateConnection(
  db: Db,
  userId: number,
  serviceId: number,
  values: { status?: string; credentials?: string | null },
) {
  await db.kysely
    .updateTable('connections')
    .set({ ...values, updated_at: now() })
    .where('user_id', '=', userId)
    .where('service_id', '=', serviceId)
    .execute();
}

export async function deleteConnection(db: Db, userId: number, serviceId: number) {
  await db.kysely
    .deleteFrom('connections')
    .where('user_id', '=', userId)
    .where('service_id', '=', serviceId)
    .execute();
}

/** The ids of a provider's services, as a subquery, so they never travel to JS and back. */
const providerServiceIds = (db: Db, provider: string) =>
  db.kysely.selectFrom('services').select('id').where('provider', '=', provider);

/** Marks connections with a provider's external id (a webhook names the account, not the user). */
export async function setStatusByExternalId(db: Db, provider: string, externalId: string, status: string) {
  return db.kysely
    .updateTable('connections')
    .set({ status, updated_at: now() })
    .where('external_id', '=', externalId)
    .where('service_id', 'in', providerServiceIds(db, provider))
    .returning(['user_id', 'service_id'])
    .execute();
}

/** The connections (user and service) that a provider's external account id belongs to. */
export async function findByExternalId(db: Db, provider: string, externalId: string) {
  return db.kysely
    .selectFrom('connections')
    .select(['user_id', 'service_id'])
    .where('external_id', '=', externalId)
    .where('service_id', 'in', providerServiceIds(db, provider))
    .execute();
}

export async function hasProviderServices(db: Db, provider: string) {
  return !!(await providerServiceIds(db, provider).limit(1).executeTakeFirst());
}

// OAuth states: only a hash of the state is stored, with the user, the service and the sealed verifier.

export async function insertOAuthState(
  db: Db,
  row: { state_hash: string; user_id: number; service_id: number; verifier: string; expires_at: string },
) {
  await db.kysely
    .insertInto('oauth_states')
    .values({ ...row, created_at: now() })
    .execute();
}

/** Deletes and returns a state in one step, so a state is used at most once even under races. */
export async function takeOAuthState(db: Db, stateHash: string) {
  return db.kysely
    .deleteFrom('oauth_states')
    .where('state_hash', '=', stateHash)
    .returningAll()
    .executeTakeFirst();
}

export async function purgeExpiredOAuthStates(db: Db) {
  await db.kysely.deleteFrom('oauth_states').where('expires_at', '<', now()).execute();
}

// Webhook deliveries: the unique id makes a replay a no-op.

/** Records a delivery id; false when it was seen before (a replay). */
export async function recordWebhookDelivery(db: Db, provider: string, id: string): Promise<boolean> {
  const result = await db.kysely
    .insertInto('webhook_deliveries')
    .values({ id: `${provider}:${id}`, provider, received_at: now() })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
