import type { Kysely } from 'kysely';
import { compiledStatement } from '../../db/compiled.ts';
import type { Database } from '../../db/schema.ts';

/** A thread's row: id, user, agent, name, origin, created, updated, end user, metadata. */
type ThreadInsert = [string, number, number, string, string, string, string, string, string];

/** A claim's row: id, run id, thread id, user id, message id, instance id, status, started, heartbeat. */
export type ClaimRow = [string, string, string, number, string, string, string, string, string];

/** A message's row: id, thread, role, parts, status, created, model. */
const MESSAGE_COLUMNS = 7;

/**
 * The chat repository's writes that every turn runs (its commit, its saves, its last save),
 * compiled once (db/compiled.ts): Kysely would otherwise build each again on every turn.
 */
export function turnStatements(k: Kysely<Database>) {
  const insertThread = compiledStatement(
    (...[id, userId, agentId, name, origin, createdAt, updatedAt, endUser, metadata]: ThreadInsert) =>
      k.insertInto('threads').values({
        id,
        user_id: userId,
        agent_id: agentId,
        name,
        origin,
        created_at: createdAt,
        updated_at: updatedAt,
        end_user: endUser,
        metadata,
      }),
    ...(['id', -1, -2, 'name', 'origin', 'created', 'updated', 'endUser', 'metadata'] as ThreadInsert),
  );

  /** The insert of `count` messages at once (a turn stores its user message and its answer together). */
  const messagesInsert = (count: number) =>
    compiledStatement(
      (...values: (string | null)[]) =>
        k.insertInto('messages').values(
          Array.from({ length: count }, (_, m) => {
            const [id, threadId, role, parts, status, createdAt, model] = values.slice(
              m * MESSAGE_COLUMNS,
              (m + 1) * MESSAGE_COLUMNS,
            ) as [string, string, string, string, string, string, string | null];
            return { id, thread_id: threadId, role, parts, status, created_at: createdAt, model };
          }),
        ),
      ...Array.from({ length: count * MESSAGE_COLUMNS }, (_, i): string | null => `stand-in ${i}`),
    );
  const messagesInserts = new Map<number, ReturnType<typeof messagesInsert>>();
  /** Inserts messages given as their rows' values one after the other. */
  const insertMessages = (on: Kysely<Database>, ...values: (string | null)[]) => {
    const count = values.length / MESSAGE_COLUMNS;
    let insert = messagesInserts.get(count);
    if (!insert) messagesInserts.set(count, (insert = messagesInsert(count)));
    return insert(on, ...values);
  };

  const touchThread = compiledStatement(
    (updatedAt: string, threadId: string, userId: number) =>
      k
        .updateTable('threads')
        .set({ updated_at: updatedAt })
        .where('id', '=', threadId)
        .where('user_id', '=', userId),
    'updated',
    'thread',
    -1,
  );
  const saveAnswer = compiledStatement(
    (parts: string, status: string, messageId: string, threadId: string) =>
      k
        .updateTable('messages')
        .set({ parts, status })
        .where('id', '=', messageId)
        .where('thread_id', '=', threadId),
    'parts',
    'status',
    'message',
    'thread',
  );
  /** A message saved only through a thread the user owns. */
  const saveOwnedMessage = compiledStatement(
    (parts: string, status: string, messageId: string, threadId: string, userId: number) =>
      k
        .updateTable('messages')
        .set({ parts, status })
        .where('id', '=', messageId)
        .where(
          'thread_id',
          'in',
          k.selectFrom('threads').select('id').where('id', '=', threadId).where('user_id', '=', userId),
        ),
    'parts',
    'status',
    'message',
    'thread',
    -1,
  );
  return { insertThread, insertMessages, touchThread, saveAnswer, saveOwnedMessage };
}

/** A run's row in `chat_runs`: its claim (in the turn's commit) and its end (in its last save). */
export function runRowStatements(k: Kysely<Database>) {
  const insertClaim = compiledStatement(
    (...[id, runId, threadId, userId, messageId, instance, status, startedAt, heartbeatAt]: ClaimRow) =>
      k
        .insertInto('chat_runs')
        .values({
          id,
          run_id: runId,
          thread_id: threadId,
          user_id: userId,
          message_id: messageId,
          instance_id: instance,
          status,
          started_at: startedAt,
          heartbeat_at: heartbeatAt,
        })
        // The one-running-run-per-thread index refuses a second run, on any instance.
        .onConflict((oc) => oc.doNothing())
        .returning('id'),
    ...(['id', 'run', 'thread', -1, 'message', 'instance', 'status', 'started', 'heartbeat'] as ClaimRow),
  );
  const updateEnd = compiledStatement(
    (status: string, endedAt: string, claimId: string, running: string) =>
      k
        .updateTable('chat_runs')
        .set({ status, ended_at: endedAt })
        .where('id', '=', claimId)
        .where('status', '=', running),
    'status',
    'ended',
    'claim',
    'running',
  );
  return { insertClaim, updateEnd };
}
