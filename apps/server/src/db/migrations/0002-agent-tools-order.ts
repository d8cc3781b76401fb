import type { Kysely } from 'kysely';
import type { VersionedMigration } from './versioned-migration.ts';

// Migrations use `Kysely<any>` on purpose: they describe the schema at their point in history.
/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * The agent list reads each agent's tools in `position` order on every call (the busiest API
 * route); this index serves that order directly instead of sorting per request.
 */
export const agentToolsOrder: VersionedMigration = () => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createIndex('agent_tools_agent_position_idx')
      .on('agent_tools')
      .columns(['agent_id', 'position'])
      .execute();
  },
});
