import type * as Ai from 'ai';
import type { KnowledgeConfig } from '../../config.ts';

/**
 * Passage embeddings through the OpenAI-compatible embeddings API of an offered model's server
 * (KNOWLEDGE_EMBEDDING_MODEL, KNOWLEDGE_EMBEDDING_FROM). Vectors are stored as float32 bytes and
 * compared by exact cosine similarity in process: an agent's passages are few enough to scan.
 */
export interface Embedder {
  /** The embedding model's name, recorded on each file it embedded. */
  readonly model: string;
  passages(texts: string[], signal?: AbortSignal): Promise<Buffer[]>;
  query(text: string, signal?: AbortSignal): Promise<Float32Array>;
}

/** The AI SDK and the provider are loaded on the first embedding, not at start (as the chat's models). */
export function createEmbedder(
  settings: NonNullable<KnowledgeConfig['embedding']>,
  options: { fetch?: typeof fetch } = {},
): Embedder {
  let loading: Promise<{ ai: typeof Ai; model: Ai.EmbeddingModel }> | undefined;
  const load = () =>
    (loading ??= Promise.all([import('ai'), import('@ai-sdk/openai-compatible')]).then(([ai, provider]) => ({
      ai,
      model: provider
        .createOpenAICompatible({
          name: 'knowledge-embeddings',
          baseURL: settings.baseUrl,
          apiKey: settings.apiKey,
          fetch: options.fetch,
        })
        .embeddingModel(settings.model),
    })));
  return {
    model: settings.model,
    async passages(texts, signal) {
      const { ai, model } = await load();
      const { embeddings } = await ai.embedMany({ model, values: texts, maxRetries: 1, abortSignal: signal });
      return embeddings.map((vector) => Buffer.from(new Float32Array(vector).buffer));
    },
    async query(text, signal) {
      const { ai, model } = await load();
      const { embedding } = await ai.embed({ model, value: text, maxRetries: 1, abortSignal: signal });
      return new Float32Array(embedding);
    },
  };
}

/** A stored vector back as floats (the bytes are copied: a Buffer may not be 4-byte aligned). */
export const vectorOf = (bytes: Uint8Array) =>
  new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return -1;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  return normA && normB ? dot / Math.sqrt(normA * normB) : 0;
}
