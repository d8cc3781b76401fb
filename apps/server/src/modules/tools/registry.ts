import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { bumpEveryListVersion } from '../../db/list-versions.ts';
import { syncCatalogServices, syncServiceActions } from './catalog-sync.ts';
import type { ActionDefinition, ServiceRef, ToolProvider } from './provider.ts';
import { createToolsRepository, type ServiceRow } from './repository.ts';

/** Actions of lazily synced providers (Composio) are listed again after this long. */
const LAZY_ACTIONS_TTL_MS = 60 * 60 * 1000;

/**
 * Copies every enabled provider's catalog into the services and actions tables (catalog-sync.ts:
 * one read, then only what changed, in one commit). Upserts keyed by (provider, provider_key) and
 * (service_id, name) keep ids stable across syncs and safe when several instances start at once;
 * what a provider stops listing is disabled or deprecated, never deleted, so agents' attached tools
 * keep their ids.
 */

export function serviceRef(row: {
  id: number;
  provider_key: string;
  auth_scheme: string;
  metadata: string;
}): ServiceRef {
  let metadata: Record<string, unknown> = {};
  try {
    metadata = JSON.parse(row.metadata) as Record<string, unknown>;
  } catch {
    metadata = {};
  }
  return { id: row.id, key: row.provider_key, authScheme: row.auth_scheme, metadata };
}

/** Syncs one provider; returns the number of services it listed. */
export async function syncProvider(db: Db, provider: ToolProvider, log?: FastifyBaseLogger): Promise<number> {
  const services = await provider.listServices();
  const ts = new Date().toISOString();
  const ids = await db.kysely
    .transaction()
    .execute((trx) => syncCatalogServices(trx, provider.id, services, ts));
  if (provider.lazyActions) return services.length;
  // Listed outside any transaction: a remote MCP server may take seconds to answer.
  const listed = new Map<number, ActionDefinition[]>();
  for (const def of services) {
    const id = ids.get(def.key)!;
    try {
      listed.set(
        id,
        await provider.listActions({
          id,
          key: def.key,
          authScheme: def.authScheme,
          metadata: def.metadata ?? {},
        }),
      );
    } catch (err) {
      // Keep the actions listed last time; the next sync tries again.
      log?.warn(
        { provider: provider.id, service: def.key, err: err instanceof Error ? err.message : String(err) },
        'could not list the actions of a service',
      );
    }
  }
  await db.kysely.transaction().execute(async (trx) => {
    if (await syncServiceActions(trx, listed, ts)) await bumpEveryListVersion(trx);
  });
  return services.length;
}

/** Syncs every provider; one provider failing (a remote MCP server down) does not stop the others. */
export async function syncCatalog(db: Db, providers: ToolProvider[], log?: FastifyBaseLogger) {
  const results: Record<string, number | 'failed'> = {};
  for (const provider of providers) {
    try {
      results[provider.id] = await syncProvider(db, provider, log);
    } catch (err) {
      results[provider.id] = 'failed';
      log?.warn(
        { provider: provider.id, err: err instanceof Error ? err.message : String(err) },
        'tool catalog sync failed',
      );
    }
  }
  return results;
}

/**
 * A service's live actions by name. A lazily synced provider's are listed on first use and again
 * when they are an hour old.
 */
export async function liveActions(db: Db, provider: ToolProvider, service: ServiceRow) {
  const repo = createToolsRepository(db);
  if (provider.lazyActions) {
    const ref = serviceRef(service);
    const syncedAt = Number(ref.metadata.actions_synced_at ?? 0);
    if (Date.now() - syncedAt >= LAZY_ACTIONS_TTL_MS) {
      const actions = await provider.listActions(ref);
      // A catalog service's tools show in any user's agent list: a change raises every version.
      await db.kysely.transaction().execute(async (trx) => {
        if (await createToolsRepository({ kysely: trx }).syncActions(service.id, actions))
          await bumpEveryListVersion(trx);
      });
      await repo.setServiceMetadata(service.id, { ...ref.metadata, actions_synced_at: Date.now() });
    }
  }
  return repo.listLiveActions(service.id);
}
