import type { LlmModelConfig } from './config-models.ts';

/** Knowledge-file settings (docs/configuration.md), built by `config.ts` from validated variables. */
export interface KnowledgeConfig {
  /** The largest file accepted; a larger upload is refused with 413 before its body is read. */
  maxFileBytes: number;
  maxFilesPerAgent: number;
  /** A PDF with more pages is refused (a 10,000-page PDF costs minutes for nothing). */
  maxPdfPages: number;
  /** A DOCX (a zip) whose entries would unpack to more, or that has more entries, is refused. */
  maxUnzippedBytes: number;
  maxZipEntries: number;
  /** Extracted text past this many characters is refused rather than indexed in part. */
  maxTextChars: number;
  /** The time and heap one extraction may use, in its own worker thread. */
  extractTimeoutMs: number;
  extractMemoryMb: number;
  /** Embeddings for search, through an offered model's OpenAI-compatible API; absent: full text only. */
  embedding?: { model: string; baseUrl: string; apiKey?: string; from: string };
  /** The largest agent export zip an import reads, packed and unpacked alike. */
  maxArchiveBytes: number;
  /** An S3-compatible bucket for the files' bytes; absent: the database keeps them. */
  bucket?: {
    bucket: string;
    /** Absent: AWS S3 in `region`. */
    endpoint?: string;
    region: string;
    accessKeyId: string;
    /** A secret: never logged, never returned. */
    secretAccessKey: string;
    /** Bucket in the path (`endpoint/bucket/key`) rather than the host name. */
    pathStyle: boolean;
  };
}

interface KnowledgeVariables {
  KNOWLEDGE_MAX_FILE_BYTES: number;
  KNOWLEDGE_MAX_FILES_PER_AGENT: number;
  KNOWLEDGE_MAX_PDF_PAGES: number;
  KNOWLEDGE_MAX_UNZIPPED_BYTES: number;
  KNOWLEDGE_MAX_ZIP_ENTRIES: number;
  KNOWLEDGE_MAX_TEXT_CHARS: number;
  KNOWLEDGE_EXTRACT_TIMEOUT_MS: number;
  KNOWLEDGE_EXTRACT_MEMORY_MB: number;
  KNOWLEDGE_EMBEDDING_MODEL?: string;
  KNOWLEDGE_EMBEDDING_FROM?: string;
  KNOWLEDGE_MAX_ARCHIVE_BYTES: number;
  KNOWLEDGE_S3_BUCKET?: string;
  KNOWLEDGE_S3_ENDPOINT?: string;
  KNOWLEDGE_S3_REGION?: string;
  KNOWLEDGE_S3_ACCESS_KEY_ID?: string;
  KNOWLEDGE_S3_SECRET_ACCESS_KEY?: string;
  KNOWLEDGE_S3_PATH_STYLE?: string;
}

const BUCKET_VARIABLES = [
  'KNOWLEDGE_S3_ENDPOINT',
  'KNOWLEDGE_S3_REGION',
  'KNOWLEDGE_S3_ACCESS_KEY_ID',
  'KNOWLEDGE_S3_SECRET_ACCESS_KEY',
  'KNOWLEDGE_S3_PATH_STYLE',
] as const;

/** The bucket settings, or the one problem with them; undefined when no bucket is named. */
function bucketSettings(env: KnowledgeVariables): KnowledgeConfig['bucket'] | string {
  const bucket = env.KNOWLEDGE_S3_BUCKET;
  if (!bucket) {
    const stray = BUCKET_VARIABLES.find((name) => env[name]);
    return stray ? `${stray}: is set without KNOWLEDGE_S3_BUCKET (name the bucket too)` : undefined;
  }
  const accessKeyId = env.KNOWLEDGE_S3_ACCESS_KEY_ID;
  const secretAccessKey = env.KNOWLEDGE_S3_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey)
    return `${accessKeyId ? 'KNOWLEDGE_S3_SECRET_ACCESS_KEY' : 'KNOWLEDGE_S3_ACCESS_KEY_ID'}: is required with KNOWLEDGE_S3_BUCKET`;
  const pathStyle = env.KNOWLEDGE_S3_PATH_STYLE;
  return {
    bucket,
    endpoint: env.KNOWLEDGE_S3_ENDPOINT,
    region: env.KNOWLEDGE_S3_REGION ?? 'us-east-1',
    accessKeyId,
    secretAccessKey,
    // S3-compatible servers at an endpoint of their own mostly want the bucket in the path.
    pathStyle: pathStyle ? pathStyle === 'true' || pathStyle === '1' : env.KNOWLEDGE_S3_ENDPOINT !== undefined,
  };
}

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** The settings, or the one problem with them (naming the variable). */
export function knowledgeSettings(
  env: KnowledgeVariables,
  offered: { models: LlmModelConfig[]; defaultModel: string },
): KnowledgeConfig | string {
  const settings: KnowledgeConfig = {
    maxFileBytes: env.KNOWLEDGE_MAX_FILE_BYTES,
    maxFilesPerAgent: env.KNOWLEDGE_MAX_FILES_PER_AGENT,
    maxPdfPages: env.KNOWLEDGE_MAX_PDF_PAGES,
    maxUnzippedBytes: env.KNOWLEDGE_MAX_UNZIPPED_BYTES,
    maxZipEntries: env.KNOWLEDGE_MAX_ZIP_ENTRIES,
    maxTextChars: env.KNOWLEDGE_MAX_TEXT_CHARS,
    extractTimeoutMs: env.KNOWLEDGE_EXTRACT_TIMEOUT_MS,
    extractMemoryMb: env.KNOWLEDGE_EXTRACT_MEMORY_MB,
    maxArchiveBytes: env.KNOWLEDGE_MAX_ARCHIVE_BYTES,
  };
  const bucket = bucketSettings(env);
  if (typeof bucket === 'string') return bucket;
  if (bucket) settings.bucket = bucket;
  const model = env.KNOWLEDGE_EMBEDDING_MODEL;
  if (!model) {
    return env.KNOWLEDGE_EMBEDDING_FROM
      ? 'KNOWLEDGE_EMBEDDING_FROM: is set without KNOWLEDGE_EMBEDDING_MODEL (name the embedding model too)'
      : settings;
  }
  const fromId = env.KNOWLEDGE_EMBEDDING_FROM ?? offered.defaultModel;
  const from = offered.models.find((m) => m.id === fromId);
  const source = env.KNOWLEDGE_EMBEDDING_FROM
    ? 'KNOWLEDGE_EMBEDDING_FROM'
    : 'KNOWLEDGE_EMBEDDING_FROM (default: the default model)';
  if (!from) return `${source}: must be one of the offered models (got "${fromId}")`;
  if (from.provider !== 'openai' && from.provider !== 'openai-compatible') {
    return `${source}: must name an openai or openai-compatible model, whose API serves embeddings (got "${fromId}", ${from.provider})`;
  }
  return {
    ...settings,
    embedding: { model, baseUrl: from.baseUrl ?? OPENAI_BASE_URL, apiKey: from.apiKey, from: from.id },
  };
}
