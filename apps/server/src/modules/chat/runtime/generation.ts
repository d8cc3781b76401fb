import { jsonSchema, Output, type JSONSchema7 } from 'ai';

/**
 * What a caller from code asks of the model's generation (the OpenAI-compatible API's `max_tokens`,
 * `stop`, `response_format`): applied to every model call of the run. The agent-api module checks
 * that the agent's model supports them before it asks.
 */
export interface GenerationOptions {
  /** At most this many tokens per model call (within the server's own `maxOutputTokens`). */
  maxOutputTokens?: number;
  stopSequences?: string[];
  /** JSON answers: any JSON object, or one following `schema`. */
  responseFormat?: { type: 'json'; schema?: JSONSchema7; name?: string; description?: string };
}

/** The AI SDK's output for a requested JSON format. */
export function jsonOutput(format: GenerationOptions['responseFormat']) {
  if (!format) return undefined;
  const about = { name: format.name, description: format.description };
  return format.schema ? Output.object({ schema: jsonSchema(format.schema), ...about }) : Output.json(about);
}
