import { z } from 'zod';

/**
 * `GET /api/v1/models`: the language models the operator offers (LLM_MODELS), the built-in offline
 * model last. Never a key; base URLs are left out too, as they may name internal hosts.
 */
export const modelInfoSchema = z.object({
  /** What an agent's `model_id` names. */
  id: z.string(),
  label: z.string(),
  provider: z.enum(['offline', 'openai', 'anthropic', 'openai-compatible']),
  /** Tokens the model reads at once, where the operator said. */
  context_window: z.number().nullable(),
  /** Prices in the operator's currency per million tokens, where the operator said. */
  input_price_per_million: z.number().nullable(),
  output_price_per_million: z.number().nullable(),
  /** The model agents without one of their own answer with. */
  default: z.boolean(),
});
export type ModelInfo = z.infer<typeof modelInfoSchema>;
export const modelListSchema = z.array(modelInfoSchema);
