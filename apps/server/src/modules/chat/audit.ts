import type { AuditEvent, AuditLog } from '../audit/service.ts';

/** Chat events go through the one audit writer; the chat runtime sees it as a function. */
export type ChatAuditEvent = AuditEvent;
export type ChatAudit = (event: ChatAuditEvent) => Promise<void>;

export const chatAudit =
  (log: AuditLog): ChatAudit =>
  (event) =>
    log.record(event);
