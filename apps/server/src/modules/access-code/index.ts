export { accessCodeRoutes } from './routes.ts';
export { accessCodeAdminRoutes } from './admin-routes.ts';
export { createAccessCodesAdmin } from './admin.ts';
export { generatedAccessCode } from './service.ts';
export { ACCESS_PROOF_COOKIE, ACCESS_PROOF_TTL_SECONDS, createAccessGate, type AccessGate } from './gate.ts';
