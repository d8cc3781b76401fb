import type { Db } from '../../db/database.ts';

/**
 * The one audit writer (DESIGN.md section 3). Every interaction worth answering "who did what,
 * when" for is recorded with the user id, the action and the object it touched. Details are facts
 * (ids, names of fields changed, counts); never secrets, tokens, passwords or message text.
 */
export interface AuditEvent {
  /** The acting user; null for anonymous calls (the access-code gate). */
  userId: number | null;
  /** Dotted verb, e.g. `agent.create`, `user.sign_in`, `access_code.failure`. */
  action: string;
  objectType?: string;
  objectId?: string | number;
  detail?: Record<string, string | number | boolean | null | (string | number)[]>;
}

export interface AuditLog {
  record(event: AuditEvent): Promise<void>;
}

export function createAuditLog(db: Db): AuditLog {
  return {
    async record(event) {
      await db.kysely
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
