import type { Service, Tool } from '@cadre/contract';
import { notFound } from '../../http/errors.ts';
import { serviceRef, type ProviderSet, type ServiceRow, type ToolsRepository } from '../tools/index.ts';
import { viaProvider } from './provider-errors.ts';

/** Actions of lazily synced providers (Composio) are listed again after this long. */
const LAZY_ACTIONS_TTL_MS = 60 * 60 * 1000;

/**
 * What the caller can connect to: catalog services plus their own, each with the caller's
 * connection status, and a service's actions. Another user's service answers 404 like an unknown one.
 */
export function createCatalog({ repo, providers }: { repo: ToolsRepository; providers: ProviderSet }) {
  async function visibleService(serviceId: number, userId: number): Promise<ServiceRow> {
    const service = await repo.findVisibleService(serviceId, userId);
    if (!service) throw notFound('Service not found');
    return service;
  }

  /** Lists a lazily synced service's actions on first use and again when they are an hour old. */
  async function ensureActions(service: ServiceRow) {
    const provider = providers.get(service.provider);
    if (!provider.lazyActions) return;
    const ref = serviceRef(service);
    const syncedAt = Number(ref.metadata.actions_synced_at ?? 0);
    if (Date.now() - syncedAt < LAZY_ACTIONS_TTL_MS) return;
    await repo.syncActions(service.id, await provider.listActions(ref));
    await repo.setServiceMetadata(service.id, { ...ref.metadata, actions_synced_at: Date.now() });
  }

  async function listServicesForUser(userId: number): Promise<Service[]> {
    const rows = await repo.listVisibleServices(userId);
    return rows
      .map((r): Service => ({
        id: r.id,
        name: r.name,
        description: r.description,
        logo: r.logo,
        status: r.connection_status === 'ACTIVE' ? 'ACTIVE' : 'INACTIVE',
        auth_schemes: [r.auth_scheme],
        last_used_at: r.last_used_at,
        last_error: r.last_error && r.last_error_at ? { message: r.last_error, at: r.last_error_at } : null,
      }))
      .sort((a, b) =>
        a.status === b.status ? a.name.localeCompare(b.name) : a.status === 'ACTIVE' ? -1 : 1,
      );
  }

  return {
    visibleService,
    listServicesForUser,

    async listActiveServices(userId: number): Promise<Service[]> {
      return (await listServicesForUser(userId)).filter((s) => s.status === 'ACTIVE');
    },

    listActions: (serviceId: number, userId: number): Promise<Tool[]> =>
      viaProvider(async () => {
        const service = await visibleService(serviceId, userId);
        await ensureActions(service);
        const actions = await repo.listLiveActions(service.id);
        return actions.map((a) => ({
          id: a.id,
          display_name: a.display_name,
          name: a.name,
          description: a.description,
          logo: service.logo,
          app_name: service.name,
        }));
      }),
  };
}

export type Catalog = ReturnType<typeof createCatalog>;
