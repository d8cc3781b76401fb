export { apiKeysRoutes } from './routes.ts';
export {
  API_KEY_CACHE_MAX,
  apiKeyHasher,
  createApiKeysService,
  newApiKey,
  type ApiKeyOptions,
  type ApiKeysService,
} from './service.ts';
export { apiKeysUserData } from './user-data.ts';
