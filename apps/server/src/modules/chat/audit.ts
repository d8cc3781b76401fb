import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AuditEvent, AuditLog } from '../../deps.ts';

/** Chat events go through the one audit writer; the chat runtime sees it as a function. */
export type ChatAuditEvent = AuditEvent;
/** `trx`: record in the caller's transaction, atomically with the change it describes. */
export type ChatAudit = (event: ChatAuditEvent, trx?: Kysely<Database>) => Promise<void>;

export const chatAudit =
  (log: AuditLog): ChatAudit =>
  (event, trx) =>
    log.record(event, trx);
