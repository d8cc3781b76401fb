import type { Db } from '../../db/database.ts';
import { deleteUserRows, selectUserRows } from '../../db/user-rows.ts';
import type { UserDataOwner } from '../../deps.ts';
import { createKnowledgeRepository, FILE_COLUMNS } from './repository.ts';

/** The user's knowledge files and their passages (P1); the bytes go with the files' rows. */
export function knowledgeUserData(db: Db): UserDataOwner {
  const k = db.kysely;
  const repo = createKnowledgeRepository(db);
  return {
    name: 'knowledge',

    async exportFor(user) {
      const [files, passages] = await Promise.all([
        selectUserRows(k, 'knowledge_files', user.id)
          .select([...FILE_COLUMNS, 'agent_id'])
          .orderBy('created_at')
          .orderBy('id')
          .execute(),
        selectUserRows(k, 'knowledge_passages', user.id)
          .select(['file_id', 'ordinal', 'page', 'text'])
          .orderBy('file_id')
          .orderBy('ordinal')
          .execute(),
      ]);
      return {
        knowledge_files: files.map((f) => ({
          ...f,
          download: `/backend/api/v1/agents/${f.agent_id}/files/${f.id}/content`,
        })),
        knowledge_passages: passages,
      };
    },

    async deleteFor(user, trx) {
      const files = trx.selectFrom('knowledge_files').select('id').where('user_id', '=', user.id);
      await trx.deleteFrom('knowledge_file_contents').where('file_id', 'in', files).execute();
      await deleteUserRows(trx, user.id, ['knowledge_passages', 'knowledge_files']);
      await repo.compactIndex(trx);
    },
  };
}
