export { createAgentsService, type AgentsService } from './service.ts';
export type { AgentProfile, AgentSummary } from './profile.ts';
export type { AttachedTool } from './attached-tool.ts';
export { agentsRoutes } from './routes.ts';
export { agentsUserData } from './user-data.ts';
