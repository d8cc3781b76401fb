import type { ModelMessage } from 'ai';

/**
 * Fits a thread's history to the model's context budget (tokens for the conversation, besides the
 * instructions, the tools and the answer): a long thread would otherwise fail once it outgrows the
 * model, and cost more on every turn before that. Tokens are estimated at four characters each, as
 * no tokenizer is shared by every provider; the budget leaves the margin.
 */

const CHARS_PER_TOKEN = 4;

/** Prepended to the first turn kept when older ones were left out. */
export const DROPPED_TURNS_NOTE =
  "[Earlier messages of this conversation were left out: they do not fit the model's context.]";

export const truncatedNote = (shown: number, length: number) =>
  `\n[Truncated: the tool's result was ${length} characters; only the first ${shown} are shown.]`;

type ToolResultOutput = Extract<ModelMessage, { role: 'tool' }>['content'][number] & {
  type: 'tool-result';
};

/**
 * A tool result longer than `maxChars` as its first `maxChars` characters with a note saying so
 * (one result, a fetched page say, must not push the whole conversation out).
 */
function truncatedOutput(output: ToolResultOutput['output'], maxChars: number): ToolResultOutput['output'] {
  let text: string;
  if (output.type === 'json') text = JSON.stringify(output.value);
  else if (output.type === 'text' || output.type === 'error-text') text = output.value;
  else return output;
  if (text.length <= maxChars) return output;
  const value = text.slice(0, maxChars) + truncatedNote(maxChars, text.length);
  return output.type === 'error-text' ? { type: 'error-text', value } : { type: 'text', value };
}

const estimatedTokens = (message: ModelMessage) =>
  Math.ceil(JSON.stringify(message.content).length / CHARS_PER_TOKEN);

/** The message with every tool result cut to a quarter of the budget. */
const withResultsCut =
  (budgetTokens: number) =>
  (message: ModelMessage): ModelMessage => {
    if (message.role !== 'tool') return message;
    const maxResultChars = Math.floor((budgetTokens * CHARS_PER_TOKEN) / 4);
    return {
      ...message,
      content: message.content.map((part) =>
        part.type === 'tool-result'
          ? { ...part, output: truncatedOutput(part.output, maxResultChars) }
          : part,
      ),
    };
  };

/** What `messages` count against `budgetTokens` in `fitToBudget` (tool results cut as it cuts them). */
export const budgetedTokens = (messages: ModelMessage[], budgetTokens: number): number =>
  messages.reduce((sum, message) => sum + estimatedTokens(withResultsCut(budgetTokens)(message)), 0);

/**
 * The messages that fit `budgetTokens`: every tool result cut to a quarter of the budget, then the
 * oldest turns (a user message and the answers to it, so no tool call loses its result) left out
 * until the rest fits, with a note in the first one kept. The newest turn is always kept whole.
 */
export function fitToBudget(messages: ModelMessage[], budgetTokens: number): ModelMessage[] {
  const cut = messages.map(withResultsCut(budgetTokens));
  const tokens = cut.map(estimatedTokens);
  const turnStarts = cut.flatMap((m, i) => (m.role === 'user' && i > 0 ? [i] : []));
  let total = tokens.reduce((sum, n) => sum + n, 0);
  let first = 0;
  for (const start of turnStarts) {
    if (total <= budgetTokens) break;
    for (let i = first; i < start; i++) total -= tokens[i]!;
    first = start;
  }
  if (first === 0) return cut;

  const kept = cut.slice(first);
  const opening = kept[0] as Extract<ModelMessage, { role: 'user' }>;
  const content =
    typeof opening.content === 'string'
      ? [{ type: 'text' as const, text: opening.content }]
      : opening.content;
  kept[0] = { ...opening, content: [{ type: 'text', text: DROPPED_TURNS_NOTE }, ...content] };
  return kept;
}
