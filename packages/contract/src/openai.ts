import { z } from 'zod';
import { errorCodeSchema } from './errors.ts';

/**
 * The OpenAI-compatible API at `/backend/openai/v1` (docs/api.md): the subset of OpenAI's Chat
 * Completions and Models formats that Cadre's agents answer. Objects are loose where OpenAI's
 * clients send parameters Cadre has no use for (temperature, user, metadata...): they are ignored.
 */

export const OPENAI_API_PATH = '/openai/v1';
export const MCP_PATH = '/mcp';

/**
 * OpenAI's error shape: every error of the OpenAI-compatible API has it, with the API's error code
 * (errors.ts) in its `code`.
 */
export const openAiErrorSchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: errorCodeSchema,
  }),
});
export type OpenAiError = z.infer<typeof openAiErrorSchema>['error'];

export const openAiModelSchema = z.object({
  /** The agent's id, as a string. */
  id: z.string(),
  object: z.literal('model'),
  /** When the agent was created, in seconds since the epoch. */
  created: z.number().int(),
  owned_by: z.string(),
  /** The agent's name and description. */
  name: z.string(),
  description: z.string(),
});
export const openAiModelListSchema = z.object({
  object: z.literal('list'),
  data: z.array(openAiModelSchema),
});

const textPartSchema = z.looseObject({ type: z.literal('text'), text: z.string().max(32_000) });

export const openAiMessageSchema = z.looseObject({
  /** System and developer messages are passed on as the caller's words; the agent's guidelines stay first. */
  role: z.enum(['system', 'developer', 'user', 'assistant']),
  content: z.union([z.string().max(32_000), z.array(textPartSchema).max(100), z.null()]).optional(),
  name: z.string().max(200).optional(),
});

export const chatCompletionRequestSchema = z.looseObject({
  /** The agent's id (as `GET /models` lists it). */
  model: z.union([z.string().min(1).max(100), z.number().int()]),
  messages: z.array(openAiMessageSchema).min(1).max(1000),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  /** The agent brings its own tools; a caller's tool definitions cannot run here. */
  tools: z.array(z.unknown()).max(0, 'the agent runs its own tools; send no tools').nullish(),
  n: z.literal(1).nullish(),
});
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

export const openAiUsageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});

export const chatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({
        role: z.literal('assistant'),
        content: z.string(),
        refusal: z.null(),
      }),
      finish_reason: z.enum(['stop', 'length']),
      logprobs: z.null(),
    }),
  ),
  usage: openAiUsageSchema,
});
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;
