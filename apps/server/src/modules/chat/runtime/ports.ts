import type { JSONSchema7 } from '@ai-sdk/provider';
import type { Kysely, Selectable } from 'kysely';
import type { ApprovalsTable, Database } from '../../../db/schema.ts';
import type { StoredMessage } from './messages.ts';

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
  /**
   * For a write/send tool: 'allow' when the person chose "Allow without asking" for this agent, so
   * a chat call runs at once (unattended runs keep the agent's own setting). Absent means ask.
   */
  approval?: 'ask' | 'allow';
  /** False when the person must connect the tool's service again before it can run. */
  connected?: boolean;
}

export type ToolExecutionResult = { ok: true; data: unknown } | { ok: false; error: string; code: string };

export interface ToolExecutor {
  /** The tools attached to an agent the user owns (empty for someone else's agent). */
  listAgentTools(userId: number, agentId: number): Promise<AgentTool[]>;
  /**
   * Runs an action with the user's OWN connection. Must honour `signal`. With an `idempotencyKey`
   * (a trigger event's write), a key that already ran answers with its stored result instead of
   * running again, so a retried run does not send twice.
   */
  execute(
    userId: number,
    actionId: number,
    args: Record<string, unknown>,
    signal: AbortSignal,
    options?: { idempotencyKey?: string },
  ): Promise<ToolExecutionResult>;
  /**
   * Optional: why the tool would refuse these (schema-valid) arguments, asked before a person is
   * asked to approve the call, so no card asks for something the tool will refuse (a demo's refund
   * outside its policy). Undefined when the tool would take them; the tool still checks when it runs.
   */
  precheck?(userId: number, actionId: number, args: Record<string, unknown>): Promise<string | undefined>;
}

type MessageUpdate = Pick<StoredMessage, 'id' | 'parts' | 'status'>;

/** Where a run keeps its assistant message and the approvals it asks for (the chat repositories). */
export interface RunStore {
  updateMessage(userId: number, threadId: string, message: MessageUpdate): Promise<void>;
  /** The run's last save; `within` runs in the same transaction (its audit event). */
  finishRun(
    userId: number,
    threadId: string,
    message: MessageUpdate,
    within?: (trx: Kysely<Database>) => Promise<void>,
  ): Promise<void>;
  insertApproval(
    row: Omit<Selectable<ApprovalsTable>, 'decided_at' | 'created_at' | 'expires_at'>,
    ttlMs: number,
  ): Promise<void>;
}
