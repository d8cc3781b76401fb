import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AuthUser } from '../../kernel.ts';
import { notFound } from '../../http/errors.ts';
import { authorOf, versionQueries } from './versions.ts';

/**
 * `AgentsService.recordFilesChange`: files added or deleted are a save of the agent, recorded as a
 * version (reason `files`) in the knowledge module's transaction; the uploads of one batch share
 * one. Touching the agent's row first takes its row lock on PostgreSQL, so the version numbers in
 * turn with concurrent saves.
 */
export async function recordFilesChange(
  user: AuthUser,
  agentId: number,
  trx: Kysely<Database>,
  batch?: string,
): Promise<number> {
  const touched = await trx
    .updateTable('agents')
    .set({ updated_at: new Date().toISOString() })
    .where('user_id', '=', user.id)
    .where('id', '=', agentId)
    .executeTakeFirst();
  if (Number(touched.numUpdatedRows) === 0) throw notFound('Agent not found');
  return versionQueries(trx).record(trx, user.id, agentId, {
    reason: 'files',
    savedBy: user.id,
    author: authorOf(user),
    batch,
  });
}
