import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { isDeepStrictEqual } from 'node:util';
import { createOfflineModel } from '../../src/modules/offline-model/index.ts';
import { systemPrompt } from '../../src/modules/chat/runtime/run.ts';
import { evaluateExpression } from '../../src/modules/tools/providers/builtin/calculator.ts';
import { CLOCK, type PhraseRow } from './phrase-table.ts';
import { toolsOf } from './toolkits.ts';

export interface Outcome {
  call?: { toolName: string; input: Record<string, unknown> };
  text: string;
}

/** Runs a row's turns through a model, as the runtime would: system prompt, history, tools. */
export const runRow = (row: Pick<PhraseRow, 'say' | 'tools'>, model?: LanguageModelV4): Promise<Outcome> =>
  converse(typeof row.say === 'string' ? [row.say] : row.say, toolsOf(row.tools), model);

/** Each turn answered by the model in order (on the phrase table's CLOCK); the last answer. */
export async function converse(
  turns: string[],
  tools: LanguageModelV4FunctionTool[],
  model: LanguageModelV4 = createOfflineModel(),
): Promise<Outcome> {
  const system = systemPrompt(
    { name: 'Helper', description: 'A test agent.', guidelines: null },
    { now: new Date(CLOCK.now), timeZone: CLOCK.timeZone },
  );
  const prompt: LanguageModelV4Prompt = [{ role: 'system', content: system }];
  let outcome: Outcome = { text: '' };
  for (const text of turns) {
    prompt.push({ role: 'user', content: [{ type: 'text', text }] });
    outcome = await answer(model, prompt, tools);
    prompt.push({ role: 'assistant', content: [{ type: 'text', text: outcome.text }] });
  }
  return outcome;
}

async function answer(
  model: LanguageModelV4,
  prompt: LanguageModelV4Prompt,
  tools: LanguageModelV4FunctionTool[],
): Promise<Outcome> {
  const { stream } = await model.doStream({ prompt: [...prompt], tools } as LanguageModelV4CallOptions);
  const outcome: Outcome = { text: '' };
  for await (const part of stream as unknown as AsyncIterable<LanguageModelV4StreamPart>) {
    if (part.type === 'text-delta') outcome.text += part.delta;
    if (part.type === 'tool-call')
      outcome.call = { toolName: part.toolName, input: JSON.parse(part.input) as Record<string, unknown> };
  }
  return outcome;
}

/** Why an outcome is wrong for its row, or undefined when it is right. */
export function judge(
  row: Pick<PhraseRow, 'call' | 'args' | 'result' | 'reply'>,
  outcome: Outcome,
): string | undefined {
  const got = outcome.call
    ? `${outcome.call.toolName} ${JSON.stringify(outcome.call.input)}`
    : `text "${outcome.text}"`;
  // A sum is right on any of the calculator's tools that computes it (Evaluate, or Add and its kin).
  if (row.call === undefined && row.result !== undefined) {
    const value = outcome.call && calculatorValue(outcome.call);
    return value === row.result ? undefined : `got ${got} = ${value}; expected ${row.result}`;
  }
  if (!row.call) {
    if (outcome.call) return `called ${got}; expected an answer without a tool`;
    const missing = [row.reply ?? []].flat().find((text) => !outcome.text.includes(text));
    return missing === undefined ? undefined : `answered ${got}; expected "${missing}"`;
  }
  if (outcome.call?.toolName !== row.call) return `got ${got}; expected a call of ${row.call}`;
  for (const [name, value] of Object.entries(row.args ?? {})) {
    if (!isDeepStrictEqual(outcome.call.input[name], value))
      return `got ${got}; expected ${name} = ${JSON.stringify(value)}`;
  }
  if (row.result !== undefined) {
    const value = calculatorValue(outcome.call);
    if (value !== row.result) return `got ${got} = ${value}; expected ${row.result}`;
  }
  return undefined;
}

/** What a call of one of the calculator's tools computes (an error's text when it fails). */
function calculatorValue(call: NonNullable<Outcome['call']>): number | string | undefined {
  const n = (name: string) => Number(call.input[name]);
  const operations: Record<string, () => number | string> = {
    evaluate: () => evaluateExpression(String(call.input.expression ?? '')),
    add: () => n('a') + n('b'),
    subtract: () => n('a') - n('b'),
    multiply: () => n('a') * n('b'),
    divide: () => n('a') / n('b'),
    power: () => n('base') ** n('exponent'),
    sqrt: () => Math.sqrt(n('x')),
    percent: () => (n('percent') / 100) * n('of'),
  };
  try {
    return operations[call.toolName]?.();
  } catch (error) {
    return String(error);
  }
}
