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

/** Only OpenAI's own API reports each token's log probability; an agent relays them from it. */
const LOGPROBS: readonly Provider[] = ['openai'];

function logprobs(provider: Provider, body: ChatCompletionRequest): number | undefined {
  if (body.logprobs !== true) {
    if (body.top_logprobs != null) throw refused('top_logprobs', 'needs logprobs: true');
    return undefined;
  }
  if (!LOGPROBS.includes(provider)) {
    throw refused('logprobs', `this agent's model (${provider}) reports no log probabilities; send none`);
  }
  return body.top_logprobs ?? 0;
}

/** The Responses route relays none: its answer's text is split over items between tool calls. */
function refuseLogprobs(asked: boolean, param: string) {
  if (asked) throw refused(param, 'log probabilities are available on chat completions only; send none');
}

/** A chat completion's generation settings, checked against the agent's model. */
export function completionGeneration(provider: Provider, body: ChatCompletionRequest): GenerationOptions {
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
    logprobs: logprobs(provider, body),
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
