export { createAuditLog } from './service.ts';
