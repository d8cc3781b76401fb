import { sql, type ExpressionBuilder } from 'kysely';
import type { jsonHelpers } from '../../db/json.ts';
import type { Database } from '../../db/schema.ts';

/**
 * One agent as a JSON object with its tools in position order, written by the database: the list's
 * element and `get`'s row.
 */
export const agentJsonOf =
  (json: ReturnType<typeof jsonHelpers>, offeredModels: readonly string[]) =>
  (eb: ExpressionBuilder<Database, 'agents'>) => {
    const tools = eb
      .selectFrom('agent_tools')
      .innerJoin('actions', 'actions.id', 'agent_tools.action_id')
      .innerJoin('services', 'services.id', 'actions.service_id')
      .select((tb) =>
        json
          .arrayAgg(
            tb,
            json.object({
              id: tb.ref('actions.id'),
              display_name: tb.ref('actions.display_name'),
              name: tb.ref('actions.name'),
              description: tb.ref('actions.description'),
              logo: tb.ref('services.logo'),
              app_name: tb.ref('services.name'),
              service_id: tb.ref('services.id'),
              // Disconnected or expired: the chat cannot run the tool until the service is connected again.
              needs_reconnecting: json.bool(
                tb.not(
                  tb.exists(
                    tb
                      .selectFrom('connections')
                      .select('connections.id')
                      .whereRef('connections.user_id', '=', 'agents.user_id')
                      .whereRef('connections.service_id', '=', 'services.id')
                      .where('connections.status', '=', sql.lit('ACTIVE')),
                  ),
                ),
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
