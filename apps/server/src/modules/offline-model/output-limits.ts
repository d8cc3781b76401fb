import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';

/** Splits text into word-sized deltas (whitespace stays with the word before it): the model's tokens. */
export function tokens(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/**
 * The caller's `maxOutputTokens` and `stopSequences`, as a provider's model applies them: the text
 * ends before the first stop sequence (finish `stop`) or after the token limit (finish `length`),
 * whichever comes first. A cut answer never goes on to a tool call: the model stopped writing.
 */
export function limitOutput(
  text: string,
  options: Pick<LanguageModelV4CallOptions, 'maxOutputTokens' | 'stopSequences'>,
): { text: string; cut?: 'length' | 'stop' } {
  const stops = (options.stopSequences ?? []).filter(Boolean);
  const at = Math.min(...stops.map((s) => text.indexOf(s)).filter((i) => i >= 0));
  const stopped = Number.isFinite(at) ? text.slice(0, at) : text;
  const words = tokens(stopped);
  const max = options.maxOutputTokens;
  if (max !== undefined && words.length > max) return { text: words.slice(0, max).join(''), cut: 'length' };
  return stopped === text ? { text } : { text: stopped, cut: 'stop' };
}
