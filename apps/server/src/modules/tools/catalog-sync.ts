import type { Insertable, Kysely } from 'kysely';
import { bumpEveryListVersion } from '../../db/list-versions.ts';
import type { ActionsTable, Database, ServicesTable } from '../../db/schema.ts';
import type { ActionDefinition, ServiceDefinition } from './provider.ts';

/**
 * Catalog syncs that read once and write only what changed. A start syncs every provider's
 * catalog; rewriting each unchanged row in its own commit (an fsync each on SQLite) cost a
 * restarted instance seconds under load. Here the stored rows are read in one query, compared with
 * the definitions, and whatever differs is upserted in multi-row statements; an unchanged catalog
 * writes nothing. Upserts (not plain inserts) keep concurrent syncs of several instances safe.
 */

/** Rows per multi-row statement: far below SQLite's and PostgreSQL's limits on parameters. */
const BATCH = 100;

const chunks = <T>(rows: T[]) =>
  Array.from({ length: Math.ceil(rows.length / BATCH) }, (_, i) => rows.slice(i * BATCH, (i + 1) * BATCH));

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

/** Whether a stored row holds other values than `values` (its `updated_at` aside). */
const differs = (row: Record<string, unknown>, values: Record<string, unknown>) =>
  Object.entries(values).some(([column, value]) => column !== 'updated_at' && row[column] !== value);

/**
 * Upserts a provider's catalog services (no owner) that are new or changed; returns every listed
 * service's id by key. A change raises every user's agent list version (the list shows a tool's
 * service name and logo), in `k`'s transaction.
 */
export async function syncCatalogServices(
  k: Kysely<Database>,
  provider: string,
  defs: ServiceDefinition[],
  ts: string,
): Promise<Map<string, number>> {
  const stored = await k
    .selectFrom('services')
    .select(['id', 'provider_key', 'name', 'description', 'logo', 'auth_scheme', 'enabled', 'metadata'])
    .where('provider', '=', provider)
    .where('owner_user_id', 'is', null)
    .execute();
  const byKey = new Map(stored.map((row) => [row.provider_key, row]));
  const ids = new Map(stored.map((row) => [row.provider_key, row.id]));
  const changed: Insertable<ServicesTable>[] = defs
    .filter((def) => {
      const row = byKey.get(def.key);
      return !row || differs(row, serviceValues(def, ts));
    })
    .map((def) => ({
      provider,
      provider_key: def.key,
      owner_user_id: null,
      created_at: ts,
      ...serviceValues(def, ts),
    }));
  for (const batch of chunks(changed)) {
    const rows = await k
      .insertInto('services')
      .values(batch)
      .onConflict((oc) =>
        oc
          .columns(['provider', 'provider_key'])
          .where('owner_user_id', 'is', null)
          .doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            description: eb.ref('excluded.description'),
            logo: eb.ref('excluded.logo'),
            auth_scheme: eb.ref('excluded.auth_scheme'),
            enabled: eb.ref('excluded.enabled'),
            metadata: eb.ref('excluded.metadata'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
      )
      .returning(['id', 'provider_key'])
      .execute();
    for (const row of rows) ids.set(row.provider_key, row.id);
  }
  // What the provider no longer lists is disabled, never deleted: agents' tools keep their ids.
  const listed = new Set(defs.map((def) => def.key));
  const gone = stored
    .filter((row) => row.enabled === 1 && !listed.has(row.provider_key))
    .map((row) => row.id);
  for (const batch of chunks(gone))
    await k.updateTable('services').set({ enabled: 0, updated_at: ts }).where('id', 'in', batch).execute();
  if (changed.length) await bumpEveryListVersion(k);
  return ids;
}

/**
 * Brings the actions of each service in `listed` in line with its definitions: new or changed ones
 * upserted by (service_id, name), ones no longer listed marked deprecated (never deleted). Answers
 * whether anything changed, for the caller to raise the agent list versions it affects.
 */
export async function syncServiceActions(
  k: Kysely<Database>,
  listed: Map<number, ActionDefinition[]>,
  ts: string,
): Promise<boolean> {
  if (listed.size === 0) return false;
  const stored = await k
    .selectFrom('actions')
    .select(['id', 'service_id', 'name', 'display_name', 'description', 'input_schema', 'effect', 'version'])
    .select('deprecated')
    .where('service_id', 'in', [...listed.keys()])
    .execute();
  const byName = new Map(stored.map((row) => [`${row.service_id}\n${row.name}`, row]));
  const changed: Insertable<ActionsTable>[] = [];
  const names = new Set<string>();
  for (const [serviceId, actions] of listed) {
    for (const def of actions) {
      const key = `${serviceId}\n${def.name}`;
      names.add(key);
      const row = byName.get(key);
      const values = actionValues(def, ts);
      if (!row || differs(row, values))
        changed.push({ service_id: serviceId, name: def.name, created_at: ts, ...values });
    }
  }
  for (const batch of chunks(changed)) {
    await k
      .insertInto('actions')
      .values(batch)
      .onConflict((oc) =>
        oc.columns(['service_id', 'name']).doUpdateSet((eb) => ({
          display_name: eb.ref('excluded.display_name'),
          description: eb.ref('excluded.description'),
          input_schema: eb.ref('excluded.input_schema'),
          effect: eb.ref('excluded.effect'),
          version: eb.ref('excluded.version'),
          deprecated: eb.ref('excluded.deprecated'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
  const gone = stored
    .filter((row) => row.deprecated === 0 && !names.has(`${row.service_id}\n${row.name}`))
    .map((row) => row.id);
  for (const batch of chunks(gone))
    await k.updateTable('actions').set({ deprecated: 1, updated_at: ts }).where('id', 'in', batch).execute();
  return changed.length > 0 || gone.length > 0;
}
