import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, TURNS_PER_CORE, loadConfig } from './config.ts';

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
};

describe('loadConfig', () => {
  it('uses the embedded defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.env).toBe('production');
    expect(config.port).toBe(8080);
    expect(config.auth.signUpsPerHour).toBe(10);
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.database).toEqual({ kind: 'sqlite', file: path.resolve('./data/cadre.sqlite') });
    expect(config.auth).toMatchObject({
      disabled: false,
      issuer: 'http://localhost:8080/idp',
      audience: 'http://localhost:8080/backend',
      builtInIssuer: true,
    });
  });

  it("admits chat turns by the machine's cores unless CHAT_MAX_CONCURRENT says otherwise", () => {
    expect(loadConfig({}).llm.maxConcurrentTurns).toBe(TURNS_PER_CORE * os.availableParallelism());
    expect(loadConfig({ CHAT_MAX_CONCURRENT: '500' }).llm.maxConcurrentTurns).toBe(500);
  });

  it('R11: bounds what clients and MCP servers may send, by default', () => {
    const config = loadConfig({});
    expect(config.http).toEqual({
      requestTimeoutMs: 10_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
      idleTimeoutMs: 120_000,
    });
    expect(config.tools.mcpLimits).toEqual({
      maxTools: 500,
      maxToolListBytes: 2_097_152,
      maxResultBytes: 1_048_576,
      callTimeoutMs: 60_000,
    });
    expect(problemsOf({ HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '6000' })[0]).toMatch(
      /^HTTP_HEADERS_TIMEOUT_MS: must not be larger than HTTP_REQUEST_TIMEOUT_MS/,
    );
  });

  it('builds URLs from PORT and PUBLIC_URL without a trailing slash', () => {
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
    const config = loadConfig({ PUBLIC_URL: 'https://cadre.example.com/' });
    expect(config.publicUrl).toBe('https://cadre.example.com');
    expect(config.auth.issuer).toBe('https://cadre.example.com/idp');
  });

  it('names each bad variable', () => {
    const problems = problemsOf({ PORT: 'abc', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' });
    expect(problems).toHaveLength(3);
    expect(problems.find((p) => p.startsWith('PORT:'))).toContain('"abc"');
    expect(problems.some((p) => p.startsWith('LOG_LEVEL:'))).toBe(true);
    expect(problems.some((p) => p.startsWith('DATABASE_URL:'))).toBe(true);
  });

  it('refuses DISABLE_AUTH in production and allows it in development', () => {
    expect(problemsOf({ DISABLE_AUTH: 'true', NODE_ENV: 'production' })[0]).toMatch(/^DISABLE_AUTH:/);
    expect(loadConfig({ DISABLE_AUTH: 'true', NODE_ENV: 'development' }).auth.disabled).toBe(true);
  });

  it('selects PostgreSQL when DATABASE_URL is a postgres URL, with bounded queries and pool waits', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@localhost/cadre', SECRETS_KEY: 'ab'.repeat(32) });
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@localhost/cadre',
      poolSize: 10,
      statementTimeoutMs: 10_000,
      acquireTimeoutMs: 4_000,
    });
  });

  it('sends LISTEN to DATABASE_LISTEN_URL beside a pooler, and refuses it alone or not a postgres URL', () => {
    const pooled = loadConfig({
      DATABASE_URL: 'postgres://u@pgbouncer:6432/cadre',
      DATABASE_LISTEN_URL: 'postgres://u@postgres:5432/cadre',
      SECRETS_KEY: 'ab'.repeat(32),
    });
    expect(pooled.database).toMatchObject({
      url: 'postgres://u@pgbouncer:6432/cadre',
      listenUrl: 'postgres://u@postgres:5432/cadre',
    });
    const [alone] = problemsOf({ DATABASE_LISTEN_URL: 'postgres://u@postgres/cadre' });
    expect(alone).toMatch(/^DATABASE_LISTEN_URL: is set without DATABASE_URL/);
    const [wrong] = problemsOf({
      DATABASE_URL: 'postgres://u@pgbouncer/cadre',
      DATABASE_LISTEN_URL: 'mysql://u@db/cadre',
      SECRETS_KEY: 'ab'.repeat(32),
    });
    expect(wrong).toMatch(/^DATABASE_LISTEN_URL: must be a postgres/);
  });

  it('refuses PostgreSQL without SECRETS_KEY, saying why and how to make one', () => {
    const [problem] = problemsOf({ DATABASE_URL: 'postgres://u@localhost/cadre' });
    expect(problem).toMatch(/^SECRETS_KEY: must be set when DATABASE_URL is set/);
    expect(problem).toContain('openssl rand -hex 32');
  });

  it('keeps usage budgets, tracing and metrics off unless set, and refuses a weak scrape token', () => {
    expect(loadConfig({}).usage).toEqual({ monthlyTokenBudget: 0 });
    expect(loadConfig({}).telemetry).toEqual({
      otlpEndpoint: undefined,
      serviceName: 'cadre',
      captureMessageContent: false,
      metricsScrapeToken: undefined,
    });
    const on = loadConfig({
      USER_MONTHLY_TOKEN_BUDGET: '100000',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
      METRICS_SCRAPE_TOKEN: 'a'.repeat(32),
    });
    expect(on.usage.monthlyTokenBudget).toBe(100_000);
    expect(on.telemetry).toMatchObject({
      otlpEndpoint: 'http://collector:4318',
      captureMessageContent: true,
    });
    expect(problemsOf({ METRICS_SCRAPE_TOKEN: 'short' })[0]).toMatch(
      /^METRICS_SCRAPE_TOKEN: must be at least 16/,
    );
    expect(problemsOf({ USER_MONTHLY_TOKEN_BUDGET: '-1' })[0]).toMatch(/^USER_MONTHLY_TOKEN_BUDGET:/);
    expect(problemsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector' })[0]).toMatch(
      /^OTEL_EXPORTER_OTLP_ENDPOINT:/,
    );
  });

  it('uses an external issuer when one is configured', () => {
    const config = loadConfig({ OIDC_ISSUER: 'https://tenant.eu.auth0.com/', OIDC_AUDIENCE: 'https://api' });
    expect(config.auth).toMatchObject({
      issuer: 'https://tenant.eu.auth0.com/',
      audience: 'https://api',
      builtInIssuer: false,
    });
  });
});

describe('docs/configuration.md', () => {
  it('documents every setting the server reads', () => {
    const doc = fs.readFileSync(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');
    const missing = CONFIG_VARIABLES.filter((name) => !doc.includes(`\`${name}\``));
    expect(missing).toEqual([]);
    expect(CONFIG_VARIABLES.length).toBeGreaterThan(40);
  });
});

describe('knowledge settings', () => {
  it('caps files at 20 MB with full-text search only by default', () => {
    expect(loadConfig({}).knowledge).toEqual({
      maxFileBytes: 20 * 1024 * 1024,
      maxFilesPerAgent: 100,
      maxPdfPages: 2000,
      maxUnzippedBytes: 100 * 1024 * 1024,
      maxZipEntries: 1000,
      maxTextChars: 5_000_000,
      extractTimeoutMs: 60_000,
      extractMemoryMb: 256,
      maxArchiveBytes: 100 * 1024 * 1024,
    });
  });

  it('keeps the bytes in a bucket when one is named, with both keys', () => {
    const keys = { KNOWLEDGE_S3_ACCESS_KEY_ID: 'AKIA1', KNOWLEDGE_S3_SECRET_ACCESS_KEY: 'secret-1' };
    // AWS by default: its region default, the bucket in the host name.
    expect(loadConfig({ KNOWLEDGE_S3_BUCKET: 'files', ...keys }).knowledge.bucket).toEqual({
      bucket: 'files',
      endpoint: undefined,
      region: 'us-east-1',
      accessKeyId: 'AKIA1',
      secretAccessKey: 'secret-1',
      pathStyle: false,
    });
    // An S3-compatible server of one's own: the bucket in the path unless told otherwise.
    const minio = { KNOWLEDGE_S3_BUCKET: 'files', KNOWLEDGE_S3_ENDPOINT: 'http://minio:9000', ...keys };
    expect(loadConfig(minio).knowledge.bucket).toMatchObject({
      endpoint: 'http://minio:9000',
      pathStyle: true,
    });
    expect(loadConfig({ ...minio, KNOWLEDGE_S3_PATH_STYLE: 'false' }).knowledge.bucket!.pathStyle).toBe(
      false,
    );
    expect(problemsOf({ KNOWLEDGE_S3_BUCKET: 'files', KNOWLEDGE_S3_ACCESS_KEY_ID: 'AKIA1' })).toEqual([
      'KNOWLEDGE_S3_SECRET_ACCESS_KEY: is required with KNOWLEDGE_S3_BUCKET',
    ]);
    expect(problemsOf({ KNOWLEDGE_S3_ENDPOINT: 'http://minio:9000' })).toEqual([
      expect.stringMatching(/^KNOWLEDGE_S3_ENDPOINT: is set without KNOWLEDGE_S3_BUCKET/),
    ]);
  });

  it("serves embeddings from an offered model's API and key", () => {
    const models = JSON.stringify([
      { id: 'chat', provider: 'anthropic', model: 'claude', api_key_env: 'ANTHROPIC_KEY' },
      { id: 'local', provider: 'openai-compatible', model: 'llama', base_url: 'http://127.0.0.1:11434/v1/' },
      { id: 'cloud', provider: 'openai', model: 'gpt-4o-mini', api_key_env: 'OPENAI_KEY' },
    ]);
    const env = { LLM_MODELS: models, ANTHROPIC_KEY: 'a-key', OPENAI_KEY: 'o-key' };
    expect(
      loadConfig({ ...env, KNOWLEDGE_EMBEDDING_MODEL: 'nomic-embed-text', KNOWLEDGE_EMBEDDING_FROM: 'local' })
        .knowledge.embedding,
    ).toEqual({
      model: 'nomic-embed-text',
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: undefined,
      from: 'local',
    });
    expect(
      loadConfig({
        ...env,
        KNOWLEDGE_EMBEDDING_MODEL: 'text-embedding-3-small',
        KNOWLEDGE_EMBEDDING_FROM: 'cloud',
      }).knowledge.embedding,
    ).toEqual({
      model: 'text-embedding-3-small',
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'o-key',
      from: 'cloud',
    });
    // The default model (the first entry) is Anthropic's, which serves no embeddings.
    expect(problemsOf({ ...env, KNOWLEDGE_EMBEDDING_MODEL: 'x' })).toEqual([
      expect.stringMatching(
        /^KNOWLEDGE_EMBEDDING_FROM \(default: the default model\): must name an openai or openai-compatible model/,
      ),
    ]);
    expect(problemsOf({ ...env, KNOWLEDGE_EMBEDDING_MODEL: 'x', KNOWLEDGE_EMBEDDING_FROM: 'nope' })).toEqual([
      'KNOWLEDGE_EMBEDDING_FROM: must be one of the offered models (got "nope")',
    ]);
    expect(problemsOf({ KNOWLEDGE_EMBEDDING_FROM: 'local' })).toEqual([
      expect.stringMatching(/KNOWLEDGE_EMBEDDING_FROM: is set without KNOWLEDGE_EMBEDDING_MODEL/),
    ]);
    expect(problemsOf({ KNOWLEDGE_MAX_FILE_BYTES: '10' })).toEqual([
      expect.stringMatching(/^KNOWLEDGE_MAX_FILE_BYTES: /),
    ]);
  });
});
