import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import { bumpListVersions } from '../../db/list-versions.ts';
import type { Database } from '../../db/schema.ts';
import type { ActionDefinition, ServiceDefinition } from './provider.ts';
import { createToolsRepository } from './repository.ts';

/**
 * The tool catalog (services and their actions) as other modules use it: what a user may see and
 * attach, and the private services a module sets up for one user. The tools module owns these
 * tables; others read and write them only through this port (or compose `shared-sql.ts`).
 */
export function createToolCatalog(db: Pick<Db, 'kysely'>) {
  const repo = createToolsRepository(db);
  return {
    /** A service the user may see: a catalog service, or one they own. Disabled ones are hidden. */
    findVisibleService: repo.findVisibleService,
    /** The services the user may see, by name then id. */
    listVisibleServices: repo.listVisibleServices,
    servicesByIds: repo.servicesByIds,
    /** The subset of `ids` naming actions the user may attach, with each one's version. */
    visibleActions: repo.visibleActions,
    findLiveActionsByKeys: repo.findLiveActionsByKeys,

    /** Deletes one of the user's own services in the caller's transaction (its actions go with it). */
    deleteOwnService: (serviceId: number, userId: number, trx: Kysely<Database>) =>
      createToolsRepository({ kysely: trx }).deleteOwnService(serviceId, userId),

    /**
     * Creates or updates a service only `ownerUserId` sees (a user's own MCP server, a demo
     * visitor's copy of a demo) with exactly these live actions, in the caller's transaction,
     * which also raises the owner's agent list version (the list shows its name, logo and tools).
     * Returns the service id and the actions' ids in the order given.
     */
    async provisionPrivateService(
      provider: string,
      ownerUserId: number,
      service: ServiceDefinition,
      actions: ActionDefinition[],
      trx: Kysely<Database>,
    ): Promise<{ serviceId: number; actionIds: number[] }> {
      const tx = createToolsRepository({ kysely: trx });
      const serviceId = await tx.upsertService(provider, ownerUserId, service);
      await tx.syncActions(serviceId, actions);
      await bumpListVersions(trx, [ownerUserId]);
      const ids = new Map((await tx.listLiveActions(serviceId)).map((a) => [a.name, a.id]));
      return { serviceId, actionIds: actions.map((a) => ids.get(a.name)!) };
    },
  };
}

export type ToolCatalog = ReturnType<typeof createToolCatalog>;
