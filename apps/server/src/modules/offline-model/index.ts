import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { ExampleTool } from './examples.ts';
import { OFFLINE_MODEL_ID, OFFLINE_PROVIDER } from './names.ts';

/**
 * The offline model's public face: an AI SDK language model that answers from the agent's tools
 * without a provider, key or network, and the example requests it understands. Its parsers and
 * phrase tables are loaded on first use, never at start (docs/architecture.md, "A start loads only
 * what every request needs"), so this file imports none of them.
 */

export { OFFLINE_LABEL, OFFLINE_MODEL_ID } from './names.ts';
export type { ExampleTool } from './examples.ts';

/** The built-in offline model (model.ts), its code loaded on its first call. */
export function createOfflineModel(): LanguageModelV4 {
  let loading: Promise<LanguageModelV4> | undefined;
  const model = () => (loading ??= import('./model.ts').then((m) => m.createModel()));
  return {
    specificationVersion: 'v4',
    provider: OFFLINE_PROVIDER,
    modelId: OFFLINE_MODEL_ID,
    supportedUrls: {},
    doGenerate: async (options) => (await model()).doGenerate(options),
    doStream: async (options) => (await model()).doStream(options),
  };
}

/**
 * Up to `limit` requests a person would type to try these tools, one per tool, with real values
 * ("What's the weather in Paris?"), each one this model answers by calling its tool with those
 * values. None deletes, none needs an id the person has not seen, none is the
 * tool's description or a template; empty when no tool has one.
 */
export async function exampleRequests(tools: ExampleTool[], limit: number): Promise<string[]> {
  const { exampleRequestsNow } = await import('./example-requests.ts');
  return exampleRequestsNow(tools, limit);
}
