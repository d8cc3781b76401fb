import type { Db } from '../../db/database.ts';
import type { AgentDirectory } from '../../deps.ts';
import type { ToolsService } from '../tools/index.ts';
import type { AgentTool, ToolExecutionResult, ToolExecutor } from './runtime/ports.ts';

/** The tools attached to the user's agent that the chat may offer: those of services switched on. */
export async function chatToolsOf(
  agents: AgentDirectory,
  userId: number,
  agentId: number,
): Promise<AgentTool[]> {
  const attached = await agents.listTools(userId, agentId);
  return attached
    .filter((tool) => tool.service.enabled)
    .map(({ actionId, name, displayName, description, inputSchema, effect, approval }) => ({
      actionId,
      name,
      displayName,
      description,
      inputSchema,
      effect,
      approval,
    }));
}

/** Results of writes run under an idempotency key (`tool_executions`). */
function createToolExecutionLog(db: Db) {
  return {
    async find(userId: number, key: string): Promise<ToolExecutionResult | undefined> {
      const row = await db.kysely
        .selectFrom('tool_executions')
        .select('result')
        .where('idempotency_key', '=', key)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row && (JSON.parse(row.result) as ToolExecutionResult);
    },
    async record(userId: number, key: string, result: ToolExecutionResult) {
      await db.kysely
        .insertInto('tool_executions')
        .values({
          idempotency_key: key,
          user_id: userId,
          result: JSON.stringify(result),
          created_at: new Date().toISOString(),
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
  };
}

/**
 * The chat runtime's ToolExecutor on the real tools layer: an agent's attached tools come from the
 * agents module (owner-scoped), and each call runs through the tools service with the chatting
 * user's own connection. Stop aborts the wait: the runtime moves on at once, and the provider
 * call's result, if it still arrives, is dropped.
 */
export function createToolsExecutor(tools: ToolsService, agents: AgentDirectory, db: Db): ToolExecutor {
  const executions = createToolExecutionLog(db);
  return {
    listAgentTools: (userId, agentId) => chatToolsOf(agents, userId, agentId),
    async execute(userId, actionId, args, signal, options = {}): Promise<ToolExecutionResult> {
      const key = options.idempotencyKey;
      const earlier = key ? await executions.find(userId, key) : undefined;
      if (earlier) return earlier;
      const stopped: ToolExecutionResult = {
        ok: false,
        error: 'The tool call was stopped.',
        code: 'aborted',
      };
      if (signal.aborted) return stopped;
      const aborted = new Promise<ToolExecutionResult>((resolve) =>
        signal.addEventListener('abort', () => resolve(stopped), { once: true }),
      );
      const result = await Promise.race([tools.executeAction(userId, actionId, args), aborted]);
      const answer: ToolExecutionResult = result.ok
        ? { ok: true, data: result.data }
        : { ok: false, error: result.error, code: result.code };
      // Only a write that happened is remembered: a failed one may be tried again.
      if (key && answer.ok) await executions.record(userId, key, answer);
      return answer;
    },
  };
}
