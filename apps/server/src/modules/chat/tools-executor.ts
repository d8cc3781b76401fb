import type { Db } from '../../db/database.ts';
import type { AgentDirectory } from './ports.ts';
import type { ToolsService } from '../tools/index.ts';
import type { AgentTool, ToolExecutionResult, ToolExecutor } from './runtime/ports.ts';

/** The tools attached to the user's agent that the chat may offer: those of services switched on. */
export async function chatToolsOf(
  agents: Pick<AgentDirectory, 'listTools'>,
  userId: number,
  agentId: number,
): Promise<AgentTool[]> {
  const attached = await agents.listTools(userId, agentId);
  return attached
    .filter((tool) => tool.service.enabled)
    .map(({ actionId, name, displayName, description, inputSchema, effect, approval, service }) => ({
      actionId,
      name,
      displayName,
      description,
      inputSchema,
      effect,
      approval,
      connected: service.connected,
    }));
}

/**
 * Writes run under an idempotency key (`tool_executions`): the key is claimed as `pending` before
 * the provider is called, and `done` with the answer once it came. A key already claimed is never
 * called again: `done` answers with its stored result; `pending` means an earlier attempt called
 * the provider and was lost before it knew the outcome, so the write may have happened.
 */
function createToolExecutionLog(db: Db) {
  const k = db.kysely;
  return {
    /** Claims the key; undefined when it is ours now, else what the earlier claim left. */
    async claim(userId: number, key: string): Promise<ToolExecutionResult | 'pending' | undefined> {
      const claimed = await k
        .insertInto('tool_executions')
        .values({
          idempotency_key: key,
          user_id: userId,
          status: 'pending',
          result: 'null',
          created_at: new Date().toISOString(),
        })
        .onConflict((oc) => oc.doNothing())
        .returning('idempotency_key')
        .executeTakeFirst();
      if (claimed) return undefined;
      const row = await k
        .selectFrom('tool_executions')
        .select(['status', 'result'])
        .where('idempotency_key', '=', key)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      // Another user's key (keys are per trigger event, so never in practice): nothing to reuse.
      if (!row) return { ok: false, error: 'This write cannot run under its key.', code: 'refused' };
      return row.status === 'done' ? (JSON.parse(row.result) as ToolExecutionResult) : 'pending';
    },
    async done(userId: number, key: string, result: ToolExecutionResult) {
      await k
        .updateTable('tool_executions')
        .set({ status: 'done', result: JSON.stringify(result) })
        .where('idempotency_key', '=', key)
        .where('user_id', '=', userId)
        .execute();
    },
    /** A write the provider refused did not happen: its key may be tried again. */
    async release(userId: number, key: string) {
      await k
        .deleteFrom('tool_executions')
        .where('idempotency_key', '=', key)
        .where('user_id', '=', userId)
        .where('status', '=', 'pending')
        .execute();
    },
  };
}

/** The answer to a write whose earlier attempt was lost mid-call: it is not sent again. */
export const MAYBE_SENT: ToolExecutionResult = {
  ok: false,
  error:
    'An earlier attempt of this run made this call and was cut off before its answer came, so it ' +
    'may already have happened; it was not made again.',
  code: 'maybe_sent',
};

/**
 * The chat runtime's ToolExecutor on the real tools layer: an agent's attached tools come from the
 * agents module (owner-scoped), and each call runs through the tools service with the chatting
 * user's own connection. Stop aborts the wait: the runtime moves on at once; the provider call's
 * result, if it still arrives, is dropped (and recorded under its key, when it has one).
 */
export function createToolsExecutor(
  tools: ToolsService,
  agents: Pick<AgentDirectory, 'listTools'>,
  db: Db,
): ToolExecutor {
  const executions = createToolExecutionLog(db);
  return {
    listAgentTools: (userId, agentId) => chatToolsOf(agents, userId, agentId),
    async execute(userId, actionId, args, signal, options = {}): Promise<ToolExecutionResult> {
      const stopped: ToolExecutionResult = {
        ok: false,
        error: 'The tool call was stopped.',
        code: 'aborted',
      };
      if (signal.aborted) return stopped;
      const key = options.idempotencyKey;
      if (key) {
        const earlier = await executions.claim(userId, key);
        if (earlier === 'pending') return MAYBE_SENT;
        if (earlier) return earlier;
      }
      const call = tools
        .executeAction(userId, actionId, args, { idempotencyKey: key })
        .then((result): ToolExecutionResult =>
          result.ok ? { ok: true, data: result.data } : { ok: false, error: result.error, code: result.code },
        );
      // Recorded whenever the provider answers, even after a Stop stopped waiting for it.
      const recorded = key
        ? call.then((answer) =>
            answer.ok ? executions.done(userId, key, answer) : executions.release(userId, key),
          )
        : Promise.resolve();
      const aborted = new Promise<ToolExecutionResult>((resolve) =>
        signal.addEventListener('abort', () => resolve(stopped), { once: true }),
      );
      // A key whose answer could not be recorded stays pending: never sent again, which is safe.
      const settled = recorded.catch(() => {});
      const answer = await Promise.race([call, aborted]);
      if (answer !== stopped) await settled;
      return answer;
    },
  };
}
