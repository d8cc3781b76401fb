import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { LlmConfig, LlmModelConfig } from '../../../config.ts';
import type { Telemetry } from '../../../kernel.ts';
import { createOfflineModel, OFFLINE_LABEL, OFFLINE_MODEL_ID } from '../../offline-model/index.ts';
import { LlmError } from './errors.ts';
import { observedModel } from './observed-model.ts';
import { withResilience, type ResilienceOptions } from './resilient-model.ts';

export interface ModelSelection {
  /** The model wrapped in the one retry layer and the timeouts; undefined when `problem` is set. */
  model?: LanguageModelV4;
  /** The offered model's id (LLM_MODELS): what agents name and each answer records. */
  id: string;
  /** Its display name (the LLM_MODELS `label`, which defaults to the id): shown beside each answer. */
  name: string;
  provider: LlmModelConfig['provider'];
  /** The provider's own name for the model. */
  modelId: string;
  /** True for the built-in offline model: the chat frame shows `label`. */
  isOffline: boolean;
  label?: string;
  /** Tokens of conversation the model is sent at most (its `context_budget`); unlimited when absent. */
  contextBudget?: number;
  /** Why no model can run (shown to the user as the 'no_model' error). */
  problem?: LlmError;
}

export interface SelectModelOptions {
  /** Overrides `fetch` for the providers (tests). */
  fetch?: typeof fetch;
  resilience?: Partial<ResilienceOptions>;
  /** Where provider failures are logged (once per failed call; never the key or the prompt). */
  log?: { warn(details: object, message: string): void };
  /** Spans and metrics of every model call, when tracing or metrics are on. */
  telemetry?: Telemetry;
}

/** One offered model with the timeouts every model call gets. */
export type ModelSettings = LlmModelConfig & Pick<LlmConfig, 'firstByteTimeoutMs' | 'idleTimeoutMs'>;

/**
 * A model whose code is loaded on its first call: a start loads no provider SDK until an answer
 * needs it (the SDKs' `provider` names are given, as they are read before a call). The offline
 * model loads its own parsers the same way.
 */
function loadedOnFirstCall(
  provider: string,
  modelId: string,
  load: () => Promise<LanguageModelV4>,
): LanguageModelV4 {
  let loading: Promise<LanguageModelV4> | undefined;
  const model = () => (loading ??= load());
  return {
    specificationVersion: 'v4',
    provider,
    modelId,
    get supportedUrls() {
      return model().then((m) => m.supportedUrls);
    },
    doGenerate: async (options) => (await model()).doGenerate(options),
    doStream: async (options) => (await model()).doStream(options),
  };
}

/**
 * Makes one offered model callable. The provider's own HTTP retries are not used (the AI
 * SDK's are disabled at the call site with `maxRetries: 0`); `withResilience` is the single retry
 * layer.
 */
export function selectModel(llm: ModelSettings, options: SelectModelOptions = {}): ModelSelection {
  const resilience: ResilienceOptions = {
    firstByteTimeoutMs: llm.firstByteTimeoutMs,
    idleTimeoutMs: llm.idleTimeoutMs,
    // Only what an operator needs to tell a wrong key from an outage: no body, key or prompt.
    onFailure: ({ error, durationMs, attempts }) =>
      options.log?.warn(
        {
          provider: llm.provider,
          model: llm.model,
          status: error.statusCode ?? null,
          category: error.category,
          durationMs,
          attempts,
        },
        'language model call failed',
      ),
    ...options.resilience,
  };
  const { telemetry } = options;
  /** The one retry layer, inside the span and metrics of the call. */
  const callable = (model: LanguageModelV4) => {
    const resilient = withResilience(model, resilience);
    return telemetry?.active
      ? loadedOnFirstCall(resilient.provider, resilient.modelId, () =>
          observedModel(resilient, { id: llm.id, provider: llm.provider }, telemetry),
        )
      : resilient;
  };
  if (llm.provider === 'offline') {
    return {
      model: callable(createOfflineModel()),
      id: llm.id,
      name: llm.label,
      provider: 'offline',
      modelId: OFFLINE_MODEL_ID,
      isOffline: true,
      label: OFFLINE_LABEL,
    };
  }
  const { id, label: name } = llm;
  const modelId = llm.model;
  const missing =
    !llm.model ||
    (llm.provider !== 'openai-compatible' && !llm.apiKey) ||
    (llm.provider === 'openai-compatible' && !llm.baseUrl);
  if (missing) {
    return { id, name, provider: llm.provider, modelId, isOffline: false, problem: new LlmError('no_model') };
  }
  const common = { apiKey: llm.apiKey, baseURL: llm.baseUrl, fetch: options.fetch };
  let model: LanguageModelV4;
  switch (llm.provider) {
    case 'openai':
      model = loadedOnFirstCall('openai.chat', modelId, async () =>
        (await import('@ai-sdk/openai')).createOpenAI(common).chat(modelId),
      );
      break;
    case 'anthropic':
      model = loadedOnFirstCall('anthropic.messages', modelId, async () =>
        (await import('@ai-sdk/anthropic')).createAnthropic(common)(modelId),
      );
      break;
    case 'openai-compatible':
      model = loadedOnFirstCall('openai-compatible.chat', modelId, async () =>
        (await import('@ai-sdk/openai-compatible')).createOpenAICompatible({
          name: 'openai-compatible',
          baseURL: llm.baseUrl!,
          apiKey: llm.apiKey,
          fetch: options.fetch,
          includeUsage: true,
          // A caller's `response_format: json_schema` goes on as OpenAI's; the chat never sends a format.
          supportsStructuredOutputs: true,
        })(modelId),
      );
      break;
  }
  return {
    model: callable(model),
    id,
    name,
    provider: llm.provider,
    modelId,
    isOffline: false,
    contextBudget: llm.contextBudget ?? undefined,
  };
}
