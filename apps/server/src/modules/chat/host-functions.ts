import { randomUUID } from 'node:crypto';
import { dynamicTool, jsonSchema, type UIMessageChunk } from 'ai';

/**
 * Host-page functions for the copilot widget (Chainlit's `CopilotFunction` / `call_fn`).
 *
 * Wire format:
 * - The run streams `{type: 'data-call-fn', data: {callId, name, args}, transient: true}`.
 * - The widget dispatches `window` event `chainlit-call-fn` `{name, args, callback}` and posts the
 *   callback's result to `POST /chainlit/fn-results/:callId` `{result}` (204).
 * - Only the copilot principal (user + agent) the call was issued to can answer it, once; unknown,
 *   foreign or already answered ids get 404. A call with no answer within the timeout, or whose run
 *   is stopped, settles as an error the model sees.
 */

export interface HostFunctionCallRequest {
  userId: number;
  agentId: number;
  name: string;
  args: unknown;
  /** Writes to the run's UI message stream. */
  write: (chunk: UIMessageChunk) => void;
  signal?: AbortSignal;
}

export type HostFunctionOutcome = { ok: true; result: unknown } | { ok: false; error: string };

interface PendingCall {
  userId: number;
  agentId: number;
  settle: (outcome: HostFunctionOutcome) => void;
}

export const HOST_FUNCTION_TIMEOUT_MS = 300_000;

export function createHostFunctionBridge(options: { timeoutMs?: number } = {}) {
  const timeoutMs = options.timeoutMs ?? HOST_FUNCTION_TIMEOUT_MS;
  const pending = new Map<string, PendingCall>();

  return {
    /** Asks the widget to run a host-page function and waits for its answer. */
    call(request: HostFunctionCallRequest): Promise<HostFunctionOutcome> {
      const callId = randomUUID();
      return new Promise<HostFunctionOutcome>((resolve) => {
        const finish = (outcome: HostFunctionOutcome) => {
          if (!pending.delete(callId)) return;
          clearTimeout(timer);
          request.signal?.removeEventListener('abort', onAbort);
          resolve(outcome);
        };
        const onAbort = () => finish({ ok: false, error: 'The run was stopped before the page answered.' });
        const timer = setTimeout(
          () => finish({ ok: false, error: 'The page did not answer the function call in time.' }),
          timeoutMs,
        );
        pending.set(callId, { userId: request.userId, agentId: request.agentId, settle: finish });
        if (request.signal?.aborted) return onAbort();
        request.signal?.addEventListener('abort', onAbort, { once: true });
        request.write({
          type: 'data-call-fn',
          data: { callId, name: request.name, args: request.args ?? {} },
          transient: true,
        } as UIMessageChunk);
      });
    },
    /** Delivers a result; false when the id is unknown, answered or someone else's. */
    settle(principal: { userId: number; agentId: number }, callId: string, result: unknown): boolean {
      const call = pending.get(callId);
      if (!call || call.userId !== principal.userId || call.agentId !== principal.agentId) return false;
      call.settle({ ok: true, result });
      return true;
    },
    pendingCount: () => pending.size,
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

/**
 * The built-in tool the runtime adds for copilot runs (only when the principal came in with a
 * copilot token): the model names a function of the page and its arguments.
 */
export function createHostFunctionTool(
  bridge: HostFunctionBridge,
  context: Omit<HostFunctionCallRequest, 'name' | 'args'>,
) {
  return dynamicTool({
    description: HOST_FUNCTION_DESCRIPTION,
    inputSchema: jsonSchema<{ name: string; args?: Record<string, unknown> }>({
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The function name the page handles, e.g. get_page_title.' },
        args: { type: 'object', description: 'The arguments.' },
      },
      required: ['name'],
      additionalProperties: false,
    }),
    execute: async (input) => {
      const { name, args } = input as { name: string; args?: Record<string, unknown> };
      const outcome = await bridge.call({ ...context, name, args: args ?? {} });
      if (!outcome.ok) throw new Error(outcome.error);
      return outcome.result;
    },
  });
}
