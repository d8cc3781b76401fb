import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { AuditLog } from '../../kernel.ts';
import type { Vault } from '../../security/vault.ts';
import type { ToolsService } from '../tools/index.ts';
import { createServicesService, type ServicesService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The services of spec section 7 (the services routes; tests call it directly). */
    services: ServicesService;
  }
}

/**
 * Builds the services service on the tools layer. (`app.ts` has it revoke a user's connections at
 * their providers before the user's rows are deleted: `disconnectAllForUser`.)
 */
export function registerServices(
  app: FastifyInstance,
  deps: { config: Config; db: Db; vault: Vault; audit: AuditLog },
  tools: ToolsService,
): ServicesService {
  const services = createServicesService({ ...deps, tools });
  app.decorate('services', services);
  return services;
}
