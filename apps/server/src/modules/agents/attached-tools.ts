import type { AttachedTool } from '../../deps.ts';
import type { createAgentsRepository } from './repository.ts';

const isEffect = (value: string): value is AttachedTool['effect'] =>
  value === 'read' || value === 'write' || value === 'send';

/** A stored schema that is not a JSON object becomes an empty object schema: the tool takes no arguments. */
function parseSchema(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // falls through to the empty schema
  }
  return { type: 'object', properties: {} };
}

/** The tools attached to the user's agent as the chat runs them, in the agent's order. */
export async function attachedToolsOf(
  repo: ReturnType<typeof createAgentsRepository>,
  userId: number,
  agentId: number,
): Promise<AttachedTool[]> {
  const rows = await repo.listTools(userId, agentId);
  return rows.map((row) => ({
    actionId: row.action_id,
    name: row.name,
    displayName: row.display_name,
    description: row.description,
    inputSchema: parseSchema(row.input_schema),
    // An unknown effect is treated as a write: it asks for approval rather than running freely.
    effect: isEffect(row.effect) ? row.effect : 'write',
    approval: row.allowed_from ? 'allow' : 'ask',
    service: {
      provider: row.provider,
      key: row.provider_key,
      ownerUserId: row.owner_user_id,
      enabled: row.enabled === 1,
    },
  }));
}
