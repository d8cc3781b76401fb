import type { JoinBuilder, Kysely } from 'kysely';
import type { AgentColor, AgentFields } from '@cadre/contract';
import type { Database } from '../../db/schema.ts';
import { actionsWithService } from '../tools/index.ts';

/** A list of texts (starters, embed origins) as the agents table stores it: JSON, null when empty. */
export const startersToText = (starters: string[]) => (starters.length ? JSON.stringify(starters) : null);

const startersFromText = (text: string | null): string[] => (text ? (JSON.parse(text) as string[]) : []);

/** The agents table's columns that hold an agent's own fields (`agentFieldsSchema`). */
export const AGENT_FIELD_COLUMNS = [
  'name',
  'description',
  'guidelines',
  'icon',
  'color',
  'starters',
  'model_id',
  'temperature',
] as const;

type StoredFields = Omit<AgentFields, 'color' | 'starters'> & {
  color: string | null;
  starters: string | null;
};

/** An agent's own fields from its stored row (colours are checked on the way in). */
export function agentFieldsOf<T extends StoredFields>(row: T): Omit<T, 'color' | 'starters'> & AgentFields {
  return { ...row, color: row.color as AgentColor | null, starters: startersFromText(row.starters) };
}

/**
 * An agent's tools joined to the tools module's view of each (`tool`: the action with its
 * service), in the agent's order; the caller selects.
 */
export const attachedTools = (executor: Kysely<Database>, agentId: number) =>
  executor
    .selectFrom('agent_tools')
    .innerJoin(actionsWithService().as('tool'), 'tool.action_id', 'agent_tools.action_id')
    .where('agent_tools.agent_id', '=', agentId)
    .orderBy('agent_tools.position')
    .orderBy('tool.action_id');

/** Joins the person's "Allow without asking" to each attached tool (none: ask every time). */
export const ownPermission = (join: JoinBuilder<Database, 'agent_tools' | 'tool_permissions'>) =>
  join
    .onRef('tool_permissions.agent_id', '=', 'agent_tools.agent_id')
    .onRef('tool_permissions.action_id', '=', 'agent_tools.action_id');
