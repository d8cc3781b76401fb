import type { Db } from '../../db/database.ts';

/**
 * The chat module's one way to write audit events. It writes `audit_events` directly until the
 * audit module lands; switching is a change to this function only.
 */
export interface ChatAuditEvent {
  userId: number | null;
  action: string;
  objectType?: string;
  objectId?: string;
  /** Facts only: ids, names, statuses, hashes. Never arguments' secret values or tokens. */
  detail?: Record<string, unknown>;
}

export async function recordChatAudit(db: Db, event: ChatAuditEvent): Promise<void> {
  await db.kysely
    .insertInto('audit_events')
    .values({
      user_id: event.userId,
      action: event.action,
      object_type: event.objectType ?? null,
      object_id: event.objectId ?? null,
      detail: JSON.stringify(event.detail ?? {}),
      created_at: new Date().toISOString(),
    })
    .execute();
}
