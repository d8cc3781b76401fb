export { apiKeysRoutes } from './routes.ts';
export { createApiKeysService, type ApiKeysService, API_KEY_CACHE_MS } from './service.ts';
export { apiKeysUserData } from './user-data.ts';
