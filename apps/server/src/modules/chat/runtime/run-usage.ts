import type { StepResult, ToolSet } from 'ai';

/** Tokens a run used over all of its model calls. */
export interface RunTokens {
  inputTokens: number;
  outputTokens: number;
  /** Some counts are estimates: the offline model's own, or a model that reported none. */
  estimated: boolean;
}

/** About four characters a token (the usual rule of thumb): the estimate where nothing was reported. */
export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

const textOf = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/**
 * Adds up a run's tokens one step (one model call) at a time, from the `usage` the provider
 * reported; a step without it is estimated from the request it sent (the run's prompt when the SDK
 * kept no request body) and the text and tool calls it got back. The offline model counts its own
 * tokens, which are estimates as well.
 */
export function meterRunTokens(options: { selfCounted: boolean; prompt: () => string }) {
  let inputTokens = 0;
  let outputTokens = 0;
  let estimated = options.selfCounted;
  let steps = 0;
  return {
    /** streamText's `onStepEnd`. */
    onStepEnd(step: StepResult<ToolSet>) {
      steps += 1;
      const { usage } = step;
      if (usage.inputTokens !== undefined && usage.outputTokens !== undefined) {
        inputTokens += usage.inputTokens;
        outputTokens += usage.outputTokens;
        return;
      }
      estimated = true;
      const sent = step.request.body;
      inputTokens +=
        usage.inputTokens ?? estimateTokens(sent === undefined ? options.prompt() : textOf(sent));
      outputTokens +=
        usage.outputTokens ??
        estimateTokens(step.text + step.toolCalls.map((call) => textOf(call.input)).join(''));
    },
    /**
     * The run's total. When no step ended (stopped or failed in the middle of its first answer) but
     * text was streamed, that answer and its prompt are estimated; with nothing streamed, nothing
     * was used.
     */
    total(unfinishedOutput: string): RunTokens {
      if (steps === 0 && unfinishedOutput) {
        return {
          inputTokens: estimateTokens(options.prompt()),
          outputTokens: estimateTokens(unfinishedOutput),
          estimated: true,
        };
      }
      return { inputTokens, outputTokens, estimated: steps > 0 && estimated };
    },
  };
}
