export { apiKeysRoutes } from './routes.ts';
export { createApiKeysService, type ApiKeyOptions, type ApiKeysService } from './service.ts';
export { apiKeysUserData } from './user-data.ts';
