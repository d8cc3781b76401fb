import { compiledStatement } from '../../db/compiled.ts';
import type { Db } from '../../db/database.ts';
import type { AuditLog } from '../../kernel.ts';

/**
 * The one audit writer (DESIGN.md section 3). Every interaction worth answering "who did what,
 * when" for is recorded with the user id, the action and the object it touched.
 */
export function createAuditLog(db: Db): AuditLog {
  // Compiled once: a chat turn records one or two events in its commits.
  const insert = compiledStatement(
    (
      userId: number | null,
      action: string,
      objectType: string | null,
      objectId: string | null,
      detail: string,
      at: string,
    ) =>
      db.kysely.insertInto('audit_events').values({
        user_id: userId,
        action,
        object_type: objectType,
        object_id: objectId,
        detail,
        created_at: at,
      }),
    -1 as number | null,
    'action',
    'type' as string | null,
    'object' as string | null,
    'detail',
    'at',
  );
  return {
    async record(event, trx) {
      await insert(
        trx ?? db.kysely,
        event.userId,
        event.action,
        event.objectType ?? null,
        event.objectId === undefined ? null : String(event.objectId),
        JSON.stringify(event.detail ?? {}),
        new Date().toISOString(),
      );
    },
  };
}
