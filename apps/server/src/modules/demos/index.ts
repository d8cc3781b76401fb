/** The demos module's public face (the routes are registered from `modules/demos/routes.ts`). */
export { demosUserData } from './user-data.ts';
export { DEMO_ISSUER } from './service.ts';
