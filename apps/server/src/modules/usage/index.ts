/** The usage module's public face: run usage and cost, the monthly budget, the Usage API. */
export { createUsageService, type RunUsage, type UsageService } from './service.ts';
export { usageRoutes } from './routes.ts';
export { usageUserData } from './user-data.ts';
