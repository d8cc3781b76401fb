import type { Db } from '../../db/database.ts';
import type { AuditLog } from '../../kernel.ts';

/**
 * The one audit writer (DESIGN.md section 3). Every interaction worth answering "who did what,
 * when" for is recorded with the user id, the action and the object it touched.
 */
export function createAuditLog(db: Db): AuditLog {
  return {
    async record(event, trx) {
      await (trx ?? db.kysely)
        .insertInto('audit_events')
        .values({
          user_id: event.userId,
          action: event.action,
          object_type: event.objectType ?? null,
          object_id: event.objectId === undefined ? null : String(event.objectId),
          detail: JSON.stringify(event.detail ?? {}),
          created_at: new Date().toISOString(),
        })
        .execute();
    },
  };
}
