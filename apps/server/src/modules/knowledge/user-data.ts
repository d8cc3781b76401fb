import type { Db } from '../../db/database.ts';
import { deleteUserRows, moveUserRows, selectUserRows } from '../../db/user-rows.ts';
import type { UserDataOwner } from '../../kernel.ts';
import { createKnowledgeRepository, FILE_COLUMNS } from './repository.ts';

/**
 * The user's knowledge files (deleted ones kept for their agents' history included), their
 * passages and which versions list them (P1); the bytes go with the files' rows. A file in a
 * bucket leaves its object due for deletion when its row goes (a trigger); `sweep` deletes it
 * once the deletion has committed.
 */
export function knowledgeUserData(db: Db, sweep: () => Promise<void>): UserDataOwner {
  const k = db.kysely;
  const repo = createKnowledgeRepository(db);
  return {
    name: 'knowledge',

    async exportFor(user) {
      const [files, passages, spans] = await Promise.all([
        selectUserRows(k, 'knowledge_files', user.id)
          .select([...FILE_COLUMNS, 'agent_id', 'detached_at', 'erased_at'])
          .orderBy('created_at')
          .orderBy('id')
          .execute(),
        selectUserRows(k, 'knowledge_passages', user.id)
          .select(['file_id', 'ordinal', 'page', 'text'])
          .orderBy('file_id')
          .orderBy('ordinal')
          .execute(),
        selectUserRows(k, 'knowledge_file_spans', user.id)
          .select(['file_id', 'agent_id', 'from_version', 'to_version'])
          .orderBy('id')
          .execute(),
      ]);
      return {
        knowledge_files: files.map((f) => ({
          ...f,
          download:
            f.detached_at === null ? `/backend/api/v1/agents/${f.agent_id}/files/${f.id}/content` : null,
        })),
        knowledge_passages: passages,
        knowledge_file_spans: spans,
      };
    },

    async deleteFor(user, trx) {
      const files = trx.selectFrom('knowledge_files').select('id').where('user_id', '=', user.id);
      await trx.deleteFrom('knowledge_file_contents').where('file_id', 'in', files).execute();
      await deleteUserRows(trx, user.id, ['knowledge_file_spans', 'knowledge_passages', 'knowledge_files']);
      await repo.compactIndex(trx);
    },

    async transferAgents(from, to, trx) {
      // Every knowledge row belongs to one of the user's agents, and goes with it.
      await moveUserRows(trx, from.id, to.id, [
        'knowledge_files',
        'knowledge_passages',
        'knowledge_file_spans',
      ]);
    },

    afterDelete: sweep,
  };
}
