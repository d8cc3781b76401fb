import type { Service, Tool } from '@cadre/contract';
import { notFound } from '../../http/errors.ts';
import type { ServiceRow, ToolCatalog, ToolsService } from '../tools/index.ts';
import type { ConnectionRepository } from './connection-repository.ts';
import { viaProvider } from './provider-errors.ts';

/**
 * What the caller can connect to: catalog services plus their own, each with the caller's
 * connection status, and a service's actions. Another user's service answers 404 like an unknown one.
 */
export function createCatalog(deps: {
  repo: ConnectionRepository;
  toolCatalog: ToolCatalog;
  tools: Pick<ToolsService, 'liveActions'>;
}) {
  const { repo, toolCatalog } = deps;

  async function visibleService(serviceId: number, userId: number): Promise<ServiceRow> {
    const service = await toolCatalog.findVisibleService(serviceId, userId);
    if (!service) throw notFound('Service not found');
    return service;
  }

  async function listServicesForUser(userId: number): Promise<Service[]> {
    const [rows, connections] = await Promise.all([
      toolCatalog.listVisibleServices(userId),
      repo.listConnectionStates(userId),
    ]);
    const connectionOf = new Map(connections.map((c) => [c.service_id, c]));
    return rows
      .map((r): Service => {
        const c = connectionOf.get(r.id);
        return {
          id: r.id,
          name: r.name,
          description: r.description,
          logo: r.logo,
          status: c?.status === 'ACTIVE' ? 'ACTIVE' : 'INACTIVE',
          auth_schemes: [r.auth_scheme],
          last_used_at: c?.last_used_at ?? null,
          last_error:
            c?.last_error && c.last_error_at ? { message: c.last_error, at: c.last_error_at } : null,
        };
      })
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
        const actions = await deps.tools.liveActions(service);
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
