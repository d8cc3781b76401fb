import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { ownedAgent } from './owned-agent.ts';

/** `text` as a LIKE pattern that matches it literally (with `ESCAPE '\\'`). */
const literally = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Where the copilot of an agent may be embedded: `agents.embed_origins` (JSON text, null = none). */
export function embedOriginQueries(db: Db) {
  const k = db.kysely;
  return {
    /** The origins allowed to embed the user's agent; [] for another user's or a missing agent. */
    async embedOrigins(userId: number, agentId: number): Promise<string[]> {
      const row = await ownedAgent(k, userId, agentId).select('embed_origins').executeTakeFirst();
      return row?.embed_origins ? (JSON.parse(row.embed_origins) as string[]) : [];
    },

    /**
     * Whether some agent lets pages of `origin` (normalised) embed its copilot. For CORS
     * preflights, which name no agent; the request that follows is checked against its own.
     * Origins hold no `"`, so the quoted origin matches one whole element of the JSON array.
     */
    async anyAllowsEmbedOrigin(origin: string): Promise<boolean> {
      const row = await k
        .selectFrom('agents')
        .select('id')
        .where(sql<boolean>`embed_origins like ${`%${literally(JSON.stringify(origin))}%`} escape '\\'`)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
