import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { KnowledgeFileRef } from './repository.ts';

/**
 * Which versions of an agent list which files. A file attached in version `from` and detached in
 * version `to` is listed by the versions from `from` up to `to` (excluded): one span per time it
 * was attached, so the history grows with the changes, not with files times versions. A detached
 * file keeps its row, bytes and passages while the agent exists (docs/architecture.md, "Knowledge
 * files"): restoring a version that lists it attaches it again.
 */

const REF_COLUMNS = [
  'knowledge_files.id',
  'knowledge_files.name',
  'knowledge_files.media_type',
  'knowledge_files.size_bytes',
  'knowledge_files.sha256',
] as const;

/** The file's attachment starting at `version`, in the caller's transaction. */
export async function attachAt(
  trx: Kysely<Database>,
  file: { id: string; user_id: number; agent_id: number },
  version: number,
) {
  await trx
    .insertInto('knowledge_file_spans')
    .values({ file_id: file.id, user_id: file.user_id, agent_id: file.agent_id, from_version: version })
    .execute();
  await trx.updateTable('knowledge_files').set({ detached_at: null }).where('id', '=', file.id).execute();
}

/** The file's open attachment ended at `version` (which no longer lists it). */
export async function detachAt(trx: Kysely<Database>, userId: number, fileId: string, version: number) {
  await trx
    .updateTable('knowledge_file_spans')
    .set({ to_version: version })
    .where('user_id', '=', userId)
    .where('file_id', '=', fileId)
    .where('to_version', 'is', null)
    .execute();
  await trx
    .updateTable('knowledge_files')
    .set({ detached_at: new Date().toISOString() })
    .where('user_id', '=', userId)
    .where('id', '=', fileId)
    .execute();
}

/** The agents module's `KnowledgeHistory`: the files of each version, and what a restore does to them. */
export const knowledgeHistory = {
  async filesByVersion(
    executor: Kysely<Database>,
    userId: number,
    agentId: number,
  ): Promise<(version: number) => KnowledgeFileRef[]> {
    const spans = await executor
      .selectFrom('knowledge_file_spans')
      .innerJoin('knowledge_files', 'knowledge_files.id', 'knowledge_file_spans.file_id')
      .select([...REF_COLUMNS, 'knowledge_file_spans.from_version', 'knowledge_file_spans.to_version'])
      .where('knowledge_file_spans.user_id', '=', userId)
      .where('knowledge_file_spans.agent_id', '=', agentId)
      .orderBy('knowledge_files.created_at')
      .orderBy('knowledge_files.id')
      .execute();
    return (version: number) =>
      spans
        .filter((s) => s.from_version <= version && (s.to_version === null || version < s.to_version))
        .map(({ from_version: _from, to_version: _to, ...ref }) => ref);
  },

  async restore(
    trx: Kysely<Database>,
    userId: number,
    agentId: number,
    files: KnowledgeFileRef[],
    atVersion: number,
  ): Promise<KnowledgeFileRef[]> {
    const wanted = new Set(files.map((f) => f.id));
    const own = await trx
      .selectFrom('knowledge_files')
      .select(['id', 'user_id', 'agent_id', 'detached_at', 'erased_at'])
      .where('user_id', '=', userId)
      .where('agent_id', '=', agentId)
      .execute();
    for (const file of own) {
      const attached = file.detached_at === null && file.erased_at === null;
      if (attached && !wanted.has(file.id)) await detachAt(trx, userId, file.id, atVersion);
      if (!attached && file.erased_at === null && wanted.has(file.id)) await attachAt(trx, file, atVersion);
    }
    const restorable = new Set(own.filter((f) => f.erased_at === null).map((f) => f.id));
    return files.filter((f) => !restorable.has(f.id));
  },
};
