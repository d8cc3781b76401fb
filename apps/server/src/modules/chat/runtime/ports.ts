import type { JSONSchema7 } from '@ai-sdk/provider';

/**
 * What the chat runtime needs from the tools layer. The lead wires the real tools service here; the
 * chat module never reaches into `modules/tools` directly.
 */
export type ToolEffect = 'read' | 'write' | 'send';

export interface AgentTool {
  actionId: number;
  /** The action's provider slug (unique per service). */
  name: string;
  displayName: string;
  description: string;
  /** JSON Schema (an object schema) of the arguments. */
  inputSchema: JSONSchema7;
  effect: ToolEffect;
}

export type ToolExecutionResult = { ok: true; data: unknown } | { ok: false; error: string; code: string };

export interface ToolExecutor {
  /** The tools attached to an agent the user owns (empty for someone else's agent). */
  listAgentTools(userId: number, agentId: number): Promise<AgentTool[]>;
  /** Runs an action with the user's OWN connection. Must honour `signal`. */
  execute(
    userId: number,
    actionId: number,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<ToolExecutionResult>;
}
