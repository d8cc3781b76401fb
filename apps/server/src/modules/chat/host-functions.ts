import { randomUUID } from 'node:crypto';
import type { UIMessageChunk } from 'ai';
import type { Db } from '../../db/database.ts';

/**
 * Host-page functions for the copilot widget (Chainlit's `CopilotFunction` / `call_fn`).
 *
 * Wire format:
 * - The run streams `{type: 'data-call-fn', data: {callId, name, args}, transient: true}`.
 * - The widget dispatches `window` event `chainlit-call-fn` `{name, args, callback}` and posts the
 *   callback's result to `POST /chainlit/fn-results/:callId` `{result}` (204).
 * - Only the copilot principal (user + agent) the call was issued to can answer it, once; unknown,
 *   foreign or already answered ids get 404, an expired one 410. A call with no answer within the
 *   timeout, or whose run is stopped, settles as an error the model sees; its row stays behind as
 *   `expired` for TOMBSTONE_MS, so a late answer is told 410 (too late), not 404 (never existed).
 *
 * The pending call is a row of `host_calls`, so the answer may reach any instance: the one that
 * stores it signals the instance running the turn (LISTEN/NOTIFY), which also re-reads the row
 * every second in case a signal was missed.
 */

export interface HostFunctionCallRequest {
  userId: number;
  agentId: number;
  runId: string;
  name: string;
  args: unknown;
  /** Writes to the run's UI message stream. */
  write: (chunk: UIMessageChunk) => void;
  signal?: AbortSignal;
}

export type HostFunctionOutcome = { ok: true; result: unknown } | { ok: false; error: string };
export type SettleResult = 'settled' | 'not_found' | 'expired';

export const HOST_FUNCTION_TIMEOUT_MS = 300_000;
/** How often a waiting run re-reads its call, in case the signal that it was answered was missed. */
const RECHECK_MS = 1_000;
/** How long past its expiry a call that got no answer is remembered (to answer 410). */
export const TOMBSTONE_MS = 3_600_000;

export function createHostFunctionBridge(db: Db, options: { timeoutMs?: number } = {}) {
  const timeoutMs = options.timeoutMs ?? HOST_FUNCTION_TIMEOUT_MS;
  const k = db.kysely;

  const answerOf = async (callId: string): Promise<HostFunctionOutcome | undefined> => {
    const row = await k
      .selectFrom('host_calls')
      .select(['status', 'result'])
      .where('id', '=', callId)
      .executeTakeFirst();
    if (row?.status !== 'answered') return undefined;
    return { ok: true, result: row.result === null ? null : (JSON.parse(row.result) as unknown) };
  };

  return {
    /** Asks the widget to run a host-page function and waits for its answer. */
    async call(request: HostFunctionCallRequest): Promise<HostFunctionOutcome> {
      const callId = randomUUID();
      const now = Date.now();
      // Calls remembered long enough (and ones whose instance died waiting) are forgotten.
      await k
        .deleteFrom('host_calls')
        .where('expires_at', '<', new Date(now - TOMBSTONE_MS).toISOString())
        .execute();
      await k
        .insertInto('host_calls')
        .values({
          id: callId,
          user_id: request.userId,
          agent_id: request.agentId,
          run_id: request.runId,
          name: request.name,
          status: 'pending',
          result: null,
          created_at: new Date(now).toISOString(),
          expires_at: new Date(now + timeoutMs).toISOString(),
        })
        .execute();
      const outcome = await new Promise<HostFunctionOutcome>((resolve) => {
        let done = false;
        const finish = (result: HostFunctionOutcome) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          clearInterval(recheck);
          unsubscribe();
          request.signal?.removeEventListener('abort', onAbort);
          resolve(result);
        };
        const check = () =>
          void answerOf(callId).then(
            (answer) => answer && finish(answer),
            () => {},
          );
        const onAbort = () => finish({ ok: false, error: 'The run was stopped before the page answered.' });
        const timer = setTimeout(
          () => finish({ ok: false, error: 'The page did not answer the function call in time.' }),
          timeoutMs,
        );
        const recheck = setInterval(check, RECHECK_MS);
        const unsubscribe = db.signals.subscribe('cadre_host_call_result', (id) => id === callId && check());
        if (request.signal?.aborted) return onAbort();
        request.signal?.addEventListener('abort', onAbort, { once: true });
        request.write({
          type: 'data-call-fn',
          data: { callId, name: request.name, args: request.args ?? {} },
          transient: true,
        } as UIMessageChunk);
      });
      // The answer (or the lack of one) now lives in the run's messages. An answered row has
      // served; an unanswered one ends as expired from now, so a late answer gets 410.
      if (outcome.ok) await k.deleteFrom('host_calls').where('id', '=', callId).execute();
      else
        await k
          .updateTable('host_calls')
          .set({ status: 'expired', expires_at: new Date().toISOString() })
          .where('id', '=', callId)
          .where('status', '=', 'pending')
          .execute();
      return outcome;
    },

    /**
     * Stores a result for the principal's pending call and tells the instance running the turn.
     * Unknown, foreign and already answered ids are `not_found`; one past its expiry `expired`.
     */
    async settle(
      principal: { userId: number; agentId: number },
      callId: string,
      result: unknown,
    ): Promise<SettleResult> {
      const now = new Date().toISOString();
      const stored = await k
        .updateTable('host_calls')
        .set({ status: 'answered', result: JSON.stringify(result ?? null) })
        .where('id', '=', callId)
        .where('user_id', '=', principal.userId)
        .where('agent_id', '=', principal.agentId)
        .where('status', '=', 'pending')
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (Number(stored.numUpdatedRows) === 1) {
        await db.signals.publish('cadre_host_call_result', callId);
        return 'settled';
      }
      const row = await k
        .selectFrom('host_calls')
        .select(['status', 'expires_at'])
        .where('id', '=', callId)
        .where('user_id', '=', principal.userId)
        .where('agent_id', '=', principal.agentId)
        .executeTakeFirst();
      const expired = row?.status === 'expired' || (row?.status === 'pending' && row.expires_at <= now);
      return expired ? 'expired' : 'not_found';
    },
  };
}

export type HostFunctionBridge = ReturnType<typeof createHostFunctionBridge>;

export const HOST_FUNCTION_TOOL = 'call_host_function';
/**
 * Worded so the offline model's fuzzy match picks the tool for messages like
 * `Call the host function "get_page_title"` (the copilot's suggested prompt).
 */
export const HOST_FUNCTION_DESCRIPTION =
  'Call a host function: a function of the web page that embeds this copilot chat, by name with ' +
  'arguments. The page runs it and returns the result.';
/** The copilot's suggested prompt that exercises the tool (the offline model fills `name` from the quotes). */
export const HOST_FUNCTION_PROMPT = 'Call the host function "get_page_title"';
