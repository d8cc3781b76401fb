import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { compiledOnce } from '../../db/compiled.ts';
import type { jsonHelpers } from '../../db/json.ts';
import type { Database } from '../../db/schema.ts';
import type { agentJsonOf } from './agent-json.ts';

/** The agent list's two reads, whole or a page, each one query compiled once. */
export function listQueries(
  k: Kysely<Database>,
  json: ReturnType<typeof jsonHelpers>,
  agentJson: ReturnType<typeof agentJsonOf>,
) {
  // The list's SQL is the same for every user (the JSON keys are literals, the user id its only
  // parameter), so it is compiled once instead of rebuilt by the query builder on every call.
  const listBuild = (userId: number) =>
    k
      .selectFrom('agents')
      .select((eb) => json.text(json.arrayAgg(eb, agentJson(eb), 'agents.id')).as('body'))
      .where('agents.user_id', '=', userId);
  const listQuery = compiledOnce(k, listBuild, -1);
  // A page: the agents after the cursor's id, picked by the (user_id, id) index, so its cost does
  // not grow with the agents before it. The page's last id and size tell whether to name another.
  const pageBuild = (userId: number, afterId: number, limit: number) =>
    k
      .selectFrom('agents')
      .select((eb) => [
        json.text(json.arrayAgg(eb, agentJson(eb), 'agents.id')).as('body'),
        eb.fn.max('agents.id').as('last_id'),
        eb.fn.countAll().as('size'),
      ])
      .where('agents.id', 'in', (eb) =>
        eb
          .selectFrom('agents as page')
          .select('page.id')
          .where('page.user_id', '=', userId)
          .where('page.id', '>', afterId)
          .orderBy('page.id')
          .limit(limit),
      );
  const pageQuery = compiledOnce(k, pageBuild, -1, -2, -3);

  return {
    /**
     * What shapes the list's JSON on this instance besides the data: the SQL that writes it, with
     * the offered models in it as literals. It goes into the list's ETag, so an instance with other
     * settings or another release never answers 304 to a body it would write differently.
     */
    shape: createHash('sha256')
      .update(listBuild(-1).compile().sql)
      .update(pageBuild(-1, -2, -3).compile().sql)
      .digest('base64url')
      .slice(0, 12),

    /**
     * The caller's agents with their tools, as the JSON text of the list response, written by the
     * database in one query: the busiest API call forwards it without building a row object per
     * tool or serializing again. Agents in id order, each agent's tools in their position order.
     */
    async listJson(userId: number): Promise<string> {
      return (await listQuery(userId))[0]!.body;
    },

    /**
     * One page of `listJson`: at most `limit` agents with an id above `afterId`, and the id to
     * continue after when the page is full (null when it is not, so the list ends here).
     */
    async pageJson(
      userId: number,
      afterId: number,
      limit: number,
    ): Promise<{ body: string; nextAfter: number | null }> {
      const row = (await pageQuery(userId, afterId, limit))[0]!;
      return { body: row.body, nextAfter: Number(row.size) === limit ? Number(row.last_id) : null };
    },
  };
}
