import type { StepResult, ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { meterRunTokens } from './run-usage.ts';

/** A finished step as the AI SDK reports it; only what the meter reads. */
const step = (fields: {
  input?: number;
  output?: number;
  body?: unknown;
  text?: string;
  toolInputs?: unknown[];
}): StepResult<ToolSet> =>
  ({
    usage: { inputTokens: fields.input, outputTokens: fields.output },
    request: { body: fields.body },
    text: fields.text ?? '',
    toolCalls: (fields.toolInputs ?? []).map((input) => ({ input })),
  }) as unknown as StepResult<ToolSet>;

describe('a run’s tokens', () => {
  it('adds up what each model call reported', () => {
    const meter = meterRunTokens({ selfCounted: false, prompt: () => 'unused' });
    meter.onStepEnd(step({ input: 10, output: 5 }));
    meter.onStepEnd(step({ input: 12, output: 20 }));
    expect(meter.total('')).toEqual({ inputTokens: 22, outputTokens: 25, estimated: false });
  });

  it('estimates a call that reported nothing from what it sent and got, and says so', () => {
    const meter = meterRunTokens({ selfCounted: false, prompt: () => 'x'.repeat(400) });
    // 80 characters sent; 8 of text and 7 of tool input back.
    meter.onStepEnd(step({ body: 'b'.repeat(80), text: 't'.repeat(8), toolInputs: [{ a: 1 }] }));
    // No request body kept: the run's prompt stands in for it.
    meter.onStepEnd(step({ text: 'y'.repeat(4) }));
    expect(meter.total('')).toEqual({ inputTokens: 20 + 100, outputTokens: 4 + 1, estimated: true });
  });

  it("marks the offline model's own counts as estimates, and a run stopped before any call ended", () => {
    const offline = meterRunTokens({ selfCounted: true, prompt: () => '' });
    offline.onStepEnd(step({ input: 3, output: 4 }));
    expect(offline.total('')).toEqual({ inputTokens: 3, outputTokens: 4, estimated: true });
    const stopped = meterRunTokens({ selfCounted: false, prompt: () => 'p'.repeat(40) });
    expect(stopped.total('half an answer')).toEqual({ inputTokens: 10, outputTokens: 4, estimated: true });
    expect(meterRunTokens({ selfCounted: true, prompt: () => 'p' }).total('')).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      estimated: false,
    });
  });
});
