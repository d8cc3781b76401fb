import { sql, type ExpressionBuilder } from 'kysely';
import type { jsonHelpers } from '../../db/json.ts';
import type { Database } from '../../db/schema.ts';
import { activeConnection } from '../services/index.ts';
import { actionsWithService } from '../tools/index.ts';

/**
 * One agent as a JSON object with its tools in position order, written by the database: the list's
 * element and `get`'s row. The tools and connections tables are read through their owners' query
 * parts (`actionsWithService`, `activeConnection`), so the list stays one statement.
 */
export const agentJsonOf =
  (json: ReturnType<typeof jsonHelpers>, offeredModels: readonly string[]) =>
  (eb: ExpressionBuilder<Database, 'agents'>) => {
    const tools = eb
      .selectFrom('agent_tools')
      .innerJoin(actionsWithService().as('tool'), 'tool.action_id', 'agent_tools.action_id')
      .select((tb) =>
        json
          .arrayAgg(
            tb,
            json.object({
              id: tb.ref('tool.action_id'),
              display_name: tb.ref('tool.display_name'),
              name: tb.ref('tool.action_name'),
              description: tb.ref('tool.description'),
              logo: tb.ref('tool.service_logo'),
              app_name: tb.ref('tool.service_name'),
              service_id: tb.ref('tool.service_id'),
              // Disconnected or expired: the chat cannot run the tool until the service is connected again.
              needs_reconnecting: json.bool(
                tb.not(tb.exists(activeConnection(tb.ref('agents.user_id'), tb.ref('tool.service_id')))),
              ),
            }),
            'agent_tools.position',
          )
          .as('tools'),
      )
      .whereRef('agent_tools.agent_id', '=', 'agents.id');
    return json.object({
      id: eb.ref('agents.id'),
      name: eb.ref('agents.name'),
      description: eb.ref('agents.description'),
      guidelines: eb.ref('agents.guidelines'),
      icon: eb.ref('agents.icon'),
      color: eb.ref('agents.color'),
      starters: json.parsed(eb.ref('agents.starters'), '[]'),
      model_id: eb.ref('agents.model_id'),
      temperature: eb.ref('agents.temperature'),
      // The offered ids are the operator's (checked at start-up), written into the SQL as literals
      // so the list's statement keeps the user id as its one parameter.
      model_available: json.bool(
        eb.or([
          eb('agents.model_id', 'is', null),
          eb(
            'agents.model_id',
            'in',
            offeredModels.map((id) => sql.lit(id)),
          ),
        ]),
      ),
      allow_unattended_writes: json.bool(eb('agents.allow_unattended_writes', '=', sql.lit(1))),
      api_writes: eb.ref('agents.api_writes'),
      tools: json.subquery(tools),
      embed_origins: json.parsed(eb.ref('agents.embed_origins'), '[]'),
    });
  };
