import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AuthUser } from '../../kernel.ts';

/** What the knowledge module needs of the agents module (`app.ts` wires it in). */
export interface KnowledgeAgents {
  /** Whether `agentId` is one of the user's agents. */
  exists(userId: number, agentId: number): Promise<boolean>;
  /**
   * Records, in the caller's transaction, that the agent's files changed: a new version (reason
   * `files`), or, for the next upload of a `batch` whose version is still the newest, that same
   * version. Answers its number (the files are listed from it on). Throws 404 when the agent is
   * not the user's.
   */
  recordFilesChange(user: AuthUser, agentId: number, trx: Kysely<Database>, batch?: string): Promise<number>;
}
