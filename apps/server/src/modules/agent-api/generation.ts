import type { ChatCompletionRequest, ResponseRequest } from '@cadre/contract';
import type { ChatService, GenerationOptions } from '../chat/index.ts';
import { OpenAiFailure } from './openai-errors.ts';

type Provider = ReturnType<ChatService['providerFor']>;

/** A JSON format as either API asks for it: `json_object`, or `json_schema` with its schema. */
type JsonFormat =
  { type: 'json_object' } | { type: 'json_schema'; name: string; description?: string; schema?: object };

/**
 * Which JSON formats each provider's model honours (docs/api.md, "Generation settings"): the
 * offline model writes prose only; Anthropic's API takes a schema but no free-form JSON mode.
 */
const JSON_FORMATS: Record<Provider, readonly JsonFormat['type'][]> = {
  offline: [],
  openai: ['json_object', 'json_schema'],
  'openai-compatible': ['json_object', 'json_schema'],
  anthropic: ['json_schema'],
};

const refused = (param: string, why: string) => new OpenAiFailure('bad_request', `${param}: ${why}`, param);

function responseFormat(provider: Provider, format: JsonFormat | undefined, param: string) {
  if (!format) return undefined;
  if (!JSON_FORMATS[provider].includes(format.type)) {
    throw refused(
      param,
      `this agent's model (${provider}) cannot answer in the '${format.type}' format; send no format, or use another agent`,
    );
  }
  if (format.type === 'json_object') return { type: 'json' as const };
  return {
    type: 'json' as const,
    name: format.name,
    description: format.description,
    schema: format.schema ?? { type: 'object' },
  } satisfies GenerationOptions['responseFormat'];
}

/**
 * Log probabilities are refused for every model: an agent's answer is written over several model
 * calls with tool results between them, and Cadre does not relay per-token data of any of them.
 */
function refuseLogprobs(asked: boolean, param: string) {
  if (asked) throw refused(param, 'log probabilities are not available from an agent; send none');
}

/** A chat completion's generation settings, checked against the agent's model. */
export function completionGeneration(provider: Provider, body: ChatCompletionRequest): GenerationOptions {
  refuseLogprobs(body.logprobs === true, 'logprobs');
  refuseLogprobs(body.top_logprobs != null, 'top_logprobs');
  const limits = [body.max_tokens, body.max_completion_tokens].filter((n): n is number => n != null);
  const format = body.response_format;
  return {
    maxOutputTokens: limits.length > 0 ? Math.min(...limits) : undefined,
    stopSequences: body.stop == null ? undefined : [body.stop].flat(),
    responseFormat: responseFormat(
      provider,
      format?.type === 'json_schema'
        ? { type: 'json_schema', ...format.json_schema }
        : format?.type === 'json_object'
          ? { type: 'json_object' }
          : undefined,
      format?.type === 'json_schema' ? 'response_format.json_schema' : 'response_format',
    ),
  };
}

/** A response's generation settings, checked against the agent's model. */
export function responseGeneration(provider: Provider, body: ResponseRequest): GenerationOptions {
  refuseLogprobs(body.top_logprobs != null, 'top_logprobs');
  refuseLogprobs(
    (body.include ?? []).some((i) => i.includes('logprobs')),
    'include',
  );
  const format = body.text?.format;
  return {
    maxOutputTokens: body.max_output_tokens ?? undefined,
    responseFormat: responseFormat(
      provider,
      format?.type === 'json_schema' || format?.type === 'json_object' ? format : undefined,
      'text.format',
    ),
  };
}
