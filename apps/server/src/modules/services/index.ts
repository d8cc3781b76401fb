/**
 * The services module's public face (spec section 7: services, connections, provider callbacks).
 * It owns the connections and OAuth states tables; the tools layer reaches connections through
 * the `ConnectionStore` port, the agents list through `activeConnection`.
 */
export { registerServices } from './plugin.ts';
export { servicesRoutes } from './routes.ts';
export { createServicesService, type ServicesService } from './service.ts';
export { createConnectionStore } from './connection-repository.ts';
export { activeConnection } from './shared-sql.ts';
export { servicesUserData } from './user-data.ts';
