export { createAgentsService, type AgentsService } from './service.ts';
export { agentsRoutes } from './routes.ts';
export { agentsUserData } from './user-data.ts';
