import type { Db } from '../../db/database.ts';
import { parseStoredJson } from '../../db/json.ts';
import { deleteUserRows, selectUserRows } from '../../db/user-rows.ts';
import type { UserDataOwner } from '../../kernel.ts';

/** The audit events the user caused (P1). Register it last: other owners' deletions are not audited. */
export function auditUserData(db: Db): UserDataOwner {
  return {
    name: 'audit',
    async exportFor(user) {
      const events = await selectUserRows(db.kysely, 'audit_events', user.id)
        .select(['id', 'action', 'object_type', 'object_id', 'detail', 'created_at'])
        .orderBy('id')
        .execute();
      return { audit_events: events.map((e) => ({ ...e, detail: parseStoredJson(e.detail) })) };
    },
    async deleteFor(user, trx) {
      await deleteUserRows(trx, user.id, ['audit_events']);
    },
  };
}
