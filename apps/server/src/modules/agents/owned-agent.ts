import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * The one agent `agentId` if `userId` owns it: every read of a single agent starts here, so another
 * user's agent is simply not found (IDOR, docs/security.md). `executor` is the database or an open
 * transaction.
 */
export const ownedAgent = (executor: Kysely<Database>, userId: number, agentId: number) =>
  executor.selectFrom('agents').where('user_id', '=', userId).where('id', '=', agentId);
