import { deleteUserRows } from '../../db/user-rows.ts';
import type { UserDataOwner } from '../../kernel.ts';
import type { UsageService } from './service.ts';

/** The user's usage rows: exported whole, deleted with the user (P1). */
export function usageUserData(usage: UsageService): UserDataOwner {
  return {
    name: 'usage',
    async exportFor(user) {
      return { usage: await usage.exportRows(user.id) };
    },
    async deleteFor(user, trx) {
      await deleteUserRows(trx, user.id, ['turn_usage']);
    },
  };
}
