import type { Db } from '../../db/database.ts';
import type { ToolsService } from '../tools/index.ts';
import { createChatRepository } from './repository.ts';
import type { ToolExecutionResult, ToolExecutor } from './runtime/ports.ts';

/**
 * The chat runtime's ToolExecutor on the real tools layer: an agent's attached tools come from the
 * database (owner-scoped), and each call runs through the tools service with the chatting user's
 * own connection. Stop aborts the wait: the runtime moves on at once, and the provider call's result,
 * if it still arrives, is dropped.
 */
export function createToolsExecutor(tools: ToolsService, db: Db): ToolExecutor {
  const repo = createChatRepository(db);
  return {
    listAgentTools: (userId, agentId) => repo.listAgentTools(userId, agentId),
    async execute(userId, actionId, args, signal): Promise<ToolExecutionResult> {
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
      return result.ok
        ? { ok: true, data: result.data }
        : { ok: false, error: result.error, code: result.code };
    },
  };
}
