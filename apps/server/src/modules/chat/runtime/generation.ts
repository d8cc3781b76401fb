import { jsonSchema, Output, type JSONSchema7 } from 'ai';

/**
 * What a caller from code asks of the model's generation (the OpenAI-compatible API's `max_tokens`,
 * `stop`, `response_format`, `logprobs`): applied to every model call of the run. The agent-api module checks
 * that the agent's model supports them before it asks.
 */
export interface GenerationOptions {
  /** At most this many tokens per model call (within the server's own `maxOutputTokens`). */
  maxOutputTokens?: number;
  stopSequences?: string[];
  /** JSON answers: any JSON object, or one following `schema`. */
  responseFormat?: { type: 'json'; schema?: JSONSchema7; name?: string; description?: string };
  /** Each answer token's log probability, with this many likeliest alternatives (OpenAI's models only). */
  logprobs?: number;
}

/** The provider's own options the settings need: OpenAI's `logprobs` (true, or how many alternatives). */
export const providerOptionsFor = (generation: GenerationOptions | undefined) =>
  generation?.logprobs === undefined
    ? undefined
    : { openai: { logprobs: generation.logprobs === 0 ? true : generation.logprobs } };

/** The log probabilities of a model call's answer, as OpenAI's provider reports them in its metadata. */
export function logprobsOf(
  metadata: Record<string, Record<string, unknown> | undefined> | undefined,
): unknown[] {
  const logprobs = metadata?.openai?.logprobs;
  return Array.isArray(logprobs) ? logprobs : [];
}

/** The AI SDK's output for a requested JSON format. */
export function jsonOutput(format: GenerationOptions['responseFormat']) {
  if (!format) return undefined;
  const about = { name: format.name, description: format.description };
  return format.schema ? Output.object({ schema: jsonSchema(format.schema), ...about }) : Output.json(about);
}
