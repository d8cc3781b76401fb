import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { LlmConfig } from '../../../config.ts';
import { LlmError } from './errors.ts';
import { createOfflineModel } from './offline-model.ts';
import { OFFLINE_LABEL } from './offline-phrases.ts';
import { withResilience, type ResilienceOptions } from './resilient-model.ts';

export interface ModelSelection {
  /** The model wrapped in the one retry layer and the timeouts; undefined when `problem` is set. */
  model?: LanguageModelV4;
  /** 'offline' | 'openai' | 'anthropic' | 'openai-compatible' */
  provider: LlmConfig['provider'];
  modelId: string;
  /** True for the built-in offline model: the chat frame shows `label`. */
  isOffline: boolean;
  label?: string;
  /** Why no model can run (shown to the user as the 'no_model' error). */
  problem?: LlmError;
}

export interface SelectModelOptions {
  /** Overrides `fetch` for the providers (tests). */
  fetch?: typeof fetch;
  resilience?: Partial<ResilienceOptions>;
}

/**
 * Picks the language model from configuration. The provider's own HTTP retries are not used (the AI
 * SDK's are disabled at the call site with `maxRetries: 0`); `withResilience` is the single retry
 * layer.
 */
export function selectModel(llm: LlmConfig, options: SelectModelOptions = {}): ModelSelection {
  const resilience: ResilienceOptions = {
    firstByteTimeoutMs: llm.firstByteTimeoutMs,
    idleTimeoutMs: llm.idleTimeoutMs,
    ...options.resilience,
  };
  if (llm.provider === 'offline') {
    const model = createOfflineModel();
    return {
      model: withResilience(model, resilience),
      provider: 'offline',
      modelId: model.modelId,
      isOffline: true,
      label: OFFLINE_LABEL,
    };
  }
  const modelId = llm.model ?? '';
  const missing =
    !llm.model ||
    (llm.provider !== 'openai-compatible' && !llm.apiKey) ||
    (llm.provider === 'openai-compatible' && !llm.baseUrl);
  if (missing) {
    return { provider: llm.provider, modelId, isOffline: false, problem: new LlmError('no_model') };
  }
  const common = { apiKey: llm.apiKey, baseURL: llm.baseUrl, fetch: options.fetch };
  let model: LanguageModelV4;
  switch (llm.provider) {
    case 'openai':
      model = createOpenAI(common).chat(modelId);
      break;
    case 'anthropic':
      model = createAnthropic(common)(modelId);
      break;
    case 'openai-compatible':
      model = createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: llm.baseUrl!,
        apiKey: llm.apiKey,
        fetch: options.fetch,
        includeUsage: true,
      })(modelId);
      break;
  }
  return { model: withResilience(model, resilience), provider: llm.provider, modelId, isOffline: false };
}
