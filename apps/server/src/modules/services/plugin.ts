import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import type { ToolsService } from '../tools/index.ts';
import { createServicesService, type ServicesService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The services of spec section 7 (the services routes; tests call it directly). */
    services: ServicesService;
  }
}

/** Builds the services service on the tools layer and revokes a user's connections before deletion. */
export function registerServices(app: FastifyInstance, deps: AppDeps, tools: ToolsService): ServicesService {
  const services = createServicesService({ ...deps, tools });
  app.decorate('services', services);
  // DELETE /users/me revokes the user's connections at their providers before deleting rows.
  deps.users.beforeUserDelete.push(async (user) => {
    await services.disconnectAllForUser(user.id);
  });
  return services;
}
