/** The services module's public face (spec section 7: services, connections, provider callbacks). */
export { registerServices } from './plugin.ts';
export { servicesRoutes } from './routes.ts';
export { createServicesService, type ServicesService } from './service.ts';
