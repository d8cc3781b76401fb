import type { createAgentsRepository } from './repository.ts';

/** A tool attached to an agent, with the service it comes from. */
export interface AttachedTool {
  actionId: number;
  /** The action's provider slug (unique per service). */
  name: string;
  displayName: string;
  description: string;
  /** JSON Schema of the arguments (an empty object schema when the stored one is unreadable). */
  inputSchema: Record<string, unknown>;
  effect: 'read' | 'write' | 'send';
  /** For a write/send tool: ask before each chat call (the default) or run without asking. */
  approval: 'ask' | 'allow';
  /** `connected`: the user has an active connection to the service (else the tool cannot run). */
  service: {
    provider: string;
    key: string;
    ownerUserId: number | null;
    enabled: boolean;
    connected: boolean;
  };
}

type ToolRow = Awaited<ReturnType<ReturnType<typeof createAgentsRepository>['listTools']>>[number];

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

/** An attached tool as the chat runs it, from its row joined to its action and service. */
export const attachedToolOf = (row: ToolRow): AttachedTool => ({
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
    connected: Boolean(row.connected),
  },
});
