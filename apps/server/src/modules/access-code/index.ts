export { accessCodeRoutes } from './routes.ts';
export { generatedAccessCode } from './service.ts';
