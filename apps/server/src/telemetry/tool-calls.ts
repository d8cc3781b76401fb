import type { Telemetry } from '../kernel.ts';
import type { SpanAttributes, SpanHandle } from './span-types.ts';

/**
 * Runs one tool call in an `execute_tool` span and counts it in `cadre_tool_calls_total` and the
 * duration histogram under its provider: the agent's actions (tools/execute.ts) and the runtime's
 * own tools (chat/runtime/tool-set.ts) alike. `run` may name the provider once it knows it; an
 * outcome other than `ok`, or a throw (`failed`), fails the span.
 */
export async function traceToolCall<T>(
  telemetry: Telemetry | undefined,
  call: { attributes: SpanAttributes; provider: string; outcomeOf?: (result: T) => string },
  run: (span: SpanHandle, nameProvider: (provider: string) => void) => Promise<T>,
): Promise<T> {
  if (!telemetry?.active) return run({ setAttributes: () => {}, fail: () => {}, end: () => {} }, () => {});
  const started = performance.now();
  let provider = call.provider;
  let outcome = 'failed';
  try {
    return await telemetry.span(
      'execute_tool',
      { 'gen_ai.operation.name': 'execute_tool', 'cadre.tool.provider': provider, ...call.attributes },
      async (span) => {
        const result = await run(span, (named) => {
          provider = named;
          span.setAttributes({ 'cadre.tool.provider': named });
        });
        outcome = call.outcomeOf?.(result) ?? 'ok';
        if (outcome !== 'ok') span.fail(outcome);
        return result;
      },
    );
  } finally {
    telemetry.metrics.toolCall(provider, outcome, (performance.now() - started) / 1000);
  }
}
