export { createAuditLog } from './service.ts';
export { auditUserData } from './user-data.ts';
