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

/** A JSON schema the answer must follow (`response_format: json_schema`). */
const jsonSchemaFormatSchema = z.looseObject({
  name: z.string().min(1).max(64),
  description: z.string().max(2000).optional(),
  schema: z.record(z.string(), z.unknown()).optional(),
  strict: z.boolean().nullish(),
});

/** The model's generation limits a caller may set; the agent's model must support what is asked. */
const maxTokensSchema = z.number().int().min(1).max(1_000_000).nullish();
const topLogprobsSchema = z.number().int().min(0).max(20).nullish();
const noTools = z.array(z.unknown()).max(0, 'the agent runs its own tools; send no tools').nullish();

export const chatCompletionRequestSchema = z.looseObject({
  /** The agent's model id, as `GET /models` lists it (`sum-helper-12`), or the agent's id (`12`). */
  model: z.union([z.string().min(1).max(100), z.number().int()]),
  messages: z.array(openAiMessageSchema).min(1).max(1000),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  /** The agent brings its own tools; a caller's tool definitions cannot run here. */
  tools: noTools,
  n: z.literal(1).nullish(),
  /** Tokens per model call; `max_completion_tokens` is its newer name (the smaller counts). */
  max_tokens: maxTokensSchema,
  max_completion_tokens: maxTokensSchema,
  stop: z.union([z.string().min(1).max(200), z.array(z.string().min(1).max(200)).max(4)]).nullish(),
  response_format: z
    .discriminatedUnion('type', [
      z.looseObject({ type: z.literal('text') }),
      z.looseObject({ type: z.literal('json_object') }),
      z.looseObject({ type: z.literal('json_schema'), json_schema: jsonSchemaFormatSchema }),
    ])
    .nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: topLogprobsSchema,
});
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

/**
 * One tool call the agent made while answering (docs/api.md, "Tool steps"): Cadre's extension to
 * OpenAI's formats, as `cadre.tool_steps` on a completion and `cadre.tool_step` on stream chunks.
 */
export const toolStepSchema = z.object({
  /** The call's id, as the thread in Cadre shows it. */
  id: z.string(),
  /** The tool's name as the model called it (`add`). */
  name: z.string(),
  /** The tool's name as the person sees it in Cadre ("Add numbers"). */
  title: z.string(),
  arguments: z.unknown(),
  /**
   * `running` (called, no result yet), `done`, `failed`, `awaiting_approval` (a write waiting for
   * its owner in Cadre), `refused` (writes from code are refused for this agent), `denied`.
   */
  status: z.enum(['running', 'done', 'failed', 'awaiting_approval', 'refused', 'denied']),
  /** The tool's result once `done`; past 16 KiB of JSON, the start of that JSON as a string. */
  result: z.unknown().optional(),
  result_truncated: z.boolean().optional(),
  /** Why it failed, was refused or denied. */
  error: z.string().optional(),
});
export type ToolStep = z.infer<typeof toolStepSchema>;

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
      /** With `logprobs: true` (OpenAI's models): each token of the answer, as OpenAI reports it. */
      logprobs: z.object({ content: z.array(z.unknown()), refusal: z.null() }).nullable(),
    }),
  ),
  usage: openAiUsageSchema,
  /** Cadre's extension: the run's thread and the agent's tool steps (docs/api.md, "Tool steps"). */
  cadre: z.object({ thread_id: z.string(), tool_steps: z.array(toolStepSchema) }),
});
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;

/** Text as the Responses API's input items carry it: a string or text parts. */
const responseContentSchema = z.union([
  z.string().max(32_000),
  z
    .array(
      z.looseObject({
        type: z.enum(['input_text', 'output_text', 'text']),
        text: z.string().max(32_000),
      }),
    )
    .max(100),
]);

/**
 * An input item: a message, or one of the agent's own tool steps echoed back from an earlier
 * response's `output` (skipped: the thread in Cadre keeps them).
 */
export const responseInputItemSchema = z.union([
  z.looseObject({
    type: z.literal('message').optional(),
    role: z.enum(['system', 'developer', 'user', 'assistant']),
    content: responseContentSchema,
  }),
  z.looseObject({ type: z.enum(['function_call', 'function_call_output']) }),
]);

/**
 * `POST /openai/v1/responses`: the subset of OpenAI's Responses API an agent answers (docs/api.md,
 * "Responses"). The agent runs its own tools, and nothing is kept to continue from by id.
 */
export const responseRequestSchema = z.looseObject({
  /** As on chat completions: the agent's model id or its numeric id. */
  model: z.union([z.string().min(1).max(100), z.number().int()]),
  input: z.union([z.string().min(1).max(32_000), z.array(responseInputItemSchema).min(1).max(1000)]),
  /** Passed on as the caller's words, like a system message; the agent's guidelines stay first. */
  instructions: z.string().max(32_000).nullish(),
  stream: z.boolean().nullish(),
  max_output_tokens: maxTokensSchema,
  text: z
    .looseObject({
      format: z
        .discriminatedUnion('type', [
          z.looseObject({ type: z.literal('text') }),
          z.looseObject({ type: z.literal('json_object') }),
          jsonSchemaFormatSchema.extend({ type: z.literal('json_schema') }),
        ])
        .optional(),
    })
    .nullish(),
  tools: noTools,
  top_logprobs: topLogprobsSchema,
  include: z.array(z.string().max(100)).max(20).nullish(),
  previous_response_id: z.null().optional(),
  conversation: z.null().optional(),
  background: z.literal(false).nullish(),
});
export type ResponseRequest = z.infer<typeof responseRequestSchema>;

const responseUsageSchema = z.object({
  input_tokens: z.number().int(),
  input_tokens_details: z.object({ cached_tokens: z.number().int() }),
  output_tokens: z.number().int(),
  output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
  total_tokens: z.number().int(),
});

/** An output item: the answer's text as a message, or a tool call the agent made and its output. */
export const responseOutputItemSchema = z.union([
  z.object({
    type: z.literal('message'),
    id: z.string(),
    role: z.literal('assistant'),
    status: z.enum(['in_progress', 'completed', 'incomplete']),
    content: z.array(
      z.object({ type: z.literal('output_text'), text: z.string(), annotations: z.array(z.unknown()) }),
    ),
  }),
  z.object({
    type: z.literal('function_call'),
    id: z.string(),
    call_id: z.string(),
    name: z.string(),
    arguments: z.string(),
    status: z.enum(['in_progress', 'completed', 'incomplete']),
    /** Cadre's extension: the tool step as on chat completions. */
    cadre: z.object({ tool_step: toolStepSchema }),
  }),
  z.object({
    type: z.literal('function_call_output'),
    id: z.string(),
    call_id: z.string(),
    output: z.string(),
    status: z.enum(['in_progress', 'completed', 'incomplete']),
  }),
]);
export type ResponseOutputItem = z.infer<typeof responseOutputItemSchema>;

export const responseSchema = z.object({
  id: z.string(),
  object: z.literal('response'),
  created_at: z.number().int(),
  status: z.enum(['in_progress', 'completed', 'incomplete', 'failed']),
  model: z.string(),
  output: z.array(responseOutputItemSchema),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  incomplete_details: z.object({ reason: z.literal('max_output_tokens') }).nullable(),
  instructions: z.string().nullable(),
  max_output_tokens: z.number().int().nullable(),
  metadata: z.record(z.string(), z.string()),
  parallel_tool_calls: z.boolean(),
  temperature: z.null(),
  top_p: z.null(),
  tool_choice: z.literal('auto'),
  tools: z.array(z.never()),
  text: z.object({ format: z.looseObject({ type: z.string() }) }),
  usage: responseUsageSchema.nullable(),
  /** Cadre's extension: the thread the run was stored in. */
  cadre: z.object({ thread_id: z.string() }),
});
export type ResponseObject = z.infer<typeof responseSchema>;
