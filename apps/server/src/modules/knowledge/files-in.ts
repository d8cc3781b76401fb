import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { KnowledgeFileRef } from '../../deps.ts';

/**
 * An agent's files as a version lists them, read in the caller's executor (the agents module's
 * save transaction): a query of this module's table, handed to the agents module by app.ts.
 */
export const knowledgeFilesIn = async (
  executor: Kysely<Database>,
  userId: number,
  agentId: number,
): Promise<KnowledgeFileRef[]> =>
  executor
    .selectFrom('knowledge_files')
    .select(['id', 'name', 'media_type', 'size_bytes', 'sha256'])
    .where('user_id', '=', userId)
    .where('agent_id', '=', agentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
