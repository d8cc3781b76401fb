import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_KEY_SCOPES, errorSchema, modelListSchema, type ModelInfo } from '@cadre/contract';
import type { LlmConfig } from '../../config.ts';
import { operations } from '../../http/openapi.ts';

const op = operations('models');

/** What people may know of an offered model: never its key, nor its base URL (an internal host). */
export const modelInfos = (llm: Pick<LlmConfig, 'models' | 'defaultModel'>): ModelInfo[] =>
  llm.models.map((m) => ({
    id: m.id,
    label: m.label,
    provider: m.provider,
    context_window: m.contextWindow,
    input_price_per_million: m.inputPricePerMillion,
    output_price_per_million: m.outputPricePerMillion,
    default: m.id === llm.defaultModel,
  }));

/** `GET /api/v1/models`: the models an agent may choose (LLM_MODELS), for any signed-in caller. */
export const modelsRoutes: FastifyPluginAsyncZod<{ llm: LlmConfig }> = async (app, { llm }) => {
  const body = modelInfos(llm);
  app.get(
    '/api/v1/models',
    {
      // Nothing in it is the caller's or secret: any key may read it, whatever its scope.
      config: { apiKeyScope: API_KEY_SCOPES },
      ...op('listModels', 'The language models agents may answer with; the default is marked', {
        response: { 200: modelListSchema, 401: errorSchema },
      }),
    },
    async () => body,
  );
};
