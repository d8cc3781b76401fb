import type { Db } from '../../db/database.ts';
import { deleteUserRows } from '../../db/user-rows.ts';
import { parseStoredJson } from '../../db/json.ts';
import type { UserDataOwner } from '../../kernel.ts';
import { resetRateLimit } from '../../security/rate-limit.ts';

/**
 * The chat module's share of export and delete (P1): threads, messages with their tool calls and
 * the user's rating of each answer, approvals, chat sessions, runs, copilot host-page calls, results
 * of write tools run under an idempotency key, and the chat-turn counter.
 */
export function chatUserData(db: Db): UserDataOwner {
  const k = db.kysely;
  return {
    name: 'chat',

    async exportFor(user) {
      const [threads, messages, approvals, sessions, runs, hostCalls, toolExecutions] = await Promise.all([
        k
          .selectFrom('threads')
          .select(['id', 'agent_id', 'name', 'origin', 'created_at', 'updated_at'])
          .where('user_id', '=', user.id)
          .orderBy('created_at')
          .execute(),
        k
          .selectFrom('messages')
          .innerJoin('threads', 'threads.id', 'messages.thread_id')
          .leftJoin('message_feedback', 'message_feedback.message_id', 'messages.id')
          .select([
            'messages.id',
            'messages.thread_id',
            'messages.role',
            'messages.parts',
            'messages.status',
            'messages.created_at',
            'message_feedback.rating',
            'message_feedback.comment',
            'message_feedback.updated_at as rated_at',
          ])
          .where('threads.user_id', '=', user.id)
          .orderBy('messages.created_at')
          .execute(),
        k
          .selectFrom('approvals')
          .select([
            'id',
            'thread_id',
            'tool_call_id',
            'action_id',
            'args',
            'status',
            'expires_at',
            'created_at',
            'decided_at',
          ])
          .where('user_id', '=', user.id)
          .orderBy('created_at')
          .execute(),
        k
          .selectFrom('chat_sessions')
          .select(['agent_id', 'created_at', 'expires_at'])
          .where('user_id', '=', user.id)
          .orderBy('created_at')
          .execute(),
        k
          .selectFrom('chat_runs')
          .select(['id', 'run_id', 'thread_id', 'message_id', 'status', 'started_at', 'ended_at'])
          .where('user_id', '=', user.id)
          .orderBy('started_at')
          .execute(),
        k
          .selectFrom('host_calls')
          .select(['id', 'agent_id', 'run_id', 'name', 'status', 'result', 'created_at'])
          .where('user_id', '=', user.id)
          .orderBy('created_at')
          .execute(),
        k
          .selectFrom('tool_executions')
          .select(['result', 'created_at'])
          .where('user_id', '=', user.id)
          .orderBy('created_at')
          .execute(),
      ]);
      const parsed = messages.map(({ rating, comment, rated_at, ...m }) => ({
        ...m,
        parts: parseStoredJson(m.parts),
        feedback: rating ? { rating, comment, updated_at: rated_at } : null,
      }));
      return {
        threads,
        messages: parsed,
        tool_calls: parsed.flatMap((m) => toolCallsOf(m)),
        approvals: approvals.map((a) => ({ ...a, args: parseStoredJson(a.args) })),
        sessions: sessions.map((s) => ({ kind: 'chat' as const, ...s })),
        chat_runs: runs,
        host_calls: hostCalls.map((c) => ({
          ...c,
          result: c.result === null ? null : parseStoredJson(c.result),
        })),
        tool_executions: toolExecutions.map((e) => ({ ...e, result: parseStoredJson(e.result) })),
      };
    },

    async deleteFor(user, trx) {
      const threadIds = trx.selectFrom('threads').select('id').where('user_id', '=', user.id);
      // The user's own rows, and every run, approval and message in the user's threads; a run's
      // streamed chunks (kept for watchers on other instances) first.
      const runIds = trx
        .selectFrom('chat_runs')
        .select('id')
        .where((eb) => eb.or([eb('user_id', '=', user.id), eb('thread_id', 'in', threadIds)]));
      await trx.deleteFrom('chat_run_chunks').where('claim_id', 'in', runIds).execute();
      await deleteUserRows(trx, user.id, ['host_calls', 'tool_executions', 'chat_runs']);
      await trx.deleteFrom('chat_runs').where('thread_id', 'in', threadIds).execute();
      await deleteUserRows(trx, user.id, ['approvals']);
      await trx.deleteFrom('approvals').where('thread_id', 'in', threadIds).execute();
      await deleteUserRows(trx, user.id, ['message_feedback']);
      await trx.deleteFrom('messages').where('thread_id', 'in', threadIds).execute();
      await deleteUserRows(trx, user.id, ['threads', 'chat_sessions', 'chat_revocations']);
      await resetRateLimit({ kysely: trx }, `chat-turn:${user.id}`);
    },
  };
}

/** The `dynamic-tool` parts of a stored message (the AI SDK's UI message shape). */
function toolCallsOf(message: { id: string; thread_id: string; parts: unknown; created_at: string }) {
  if (!Array.isArray(message.parts)) return [];
  return (message.parts as Record<string, unknown>[])
    .filter((part) => part?.type === 'dynamic-tool')
    .map((part) => ({
      message_id: message.id,
      thread_id: message.thread_id,
      tool_call_id: String(part.toolCallId ?? ''),
      tool_name: String(part.toolName ?? ''),
      state: String(part.state ?? ''),
      input: part.input ?? null,
      output: part.output ?? null,
      error_text: typeof part.errorText === 'string' ? part.errorText : null,
      created_at: message.created_at,
    }));
}
