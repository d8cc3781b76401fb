import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseSecretsKey } from './security/vault.ts';
import { OFFLINE_MODEL, parseLlmModels, type LlmModelConfig, type ModelsIssue } from './config-models.ts';
import { knowledgeSettings, type KnowledgeConfig } from './config-knowledge.ts';

export { OFFLINE_MODEL, type LlmModelConfig, type LlmProvider } from './config-models.ts';
export type { KnowledgeConfig } from './config-knowledge.ts';

/**
 * The only reader of `process.env`. Every setting is validated here once, at start-up; the rest of
 * the server receives a typed `Config` and never looks at the environment. docs/configuration.md
 * lists every setting with its default: keep the two in step.
 */

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));
/** The name of a top-level claim of the access token. */
const claimName = z
  .string()
  .regex(/^[\w:./-]{1,200}$/, 'must be a claim name (letters, digits and _ : . / -)')
  .optional();

const optionalUrl = optionalString.pipe(z.url().optional());

const envSchema = z
  .object({
    NODE_ENV: z.enum(['production', 'development', 'test']).default('production'),
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    PUBLIC_URL: optionalUrl,
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
        .optional(),
    ),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    // The session LISTEN/NOTIFY needs, straight to PostgreSQL when DATABASE_URL goes through a
    // transaction pooler such as PgBouncer (which would hand each statement another session).
    DATABASE_LISTEN_URL: optionalString.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
        .optional(),
    ),
    // Bounds on every PostgreSQL query and on waiting for a pooled connection, so a frozen or
    // unreachable database answers 503 in seconds instead of hanging requests: a request waits for
    // the database at most their sum plus 1 s (15 s with these defaults; docs/deployment.md).
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
    DATABASE_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(4_000),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // auto: readable lines at a terminal, JSON anywhere else (a pipe, a file, a log collector).
    LOG_FORMAT: z.enum(['auto', 'json', 'text']).default('auto'),
    TRUST_PROXY: booleanFlag,
    BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(262_144),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
    // After SIGTERM, how long to keep serving (readiness failing) before closing the listener, so a
    // load balancer stops routing here first. SIGINT (Ctrl-C) does not wait.
    SHUTDOWN_DRAIN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(5_000),
    // What a client may take to send us a request (R11): a slow body or slow headers are dropped.
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(500).max(600_000).default(10_000),
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(500).max(600_000).default(10_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(72_000),
    HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(120_000),
    SECRETS_KEY: optionalString.pipe(
      z
        .string()
        .refine(
          (value) => parseSecretsKey(value) !== undefined,
          'must be 32 bytes as 64 hex characters or base64',
        )
        .optional(),
    ),

    // Sign-in: the built-in provider at /idp unless an external issuer is configured.
    DISABLE_AUTH: booleanFlag,
    OIDC_ISSUER: optionalUrl,
    OIDC_CLIENT_ID: z.string().min(1).default('cadre-web'),
    OIDC_AUDIENCE: optionalString,
    OIDC_REDIRECT_URI: optionalUrl,
    OIDC_LOGOUT_REDIRECT_URI: optionalUrl,
    // Roles (docs/security.md, "Roles"): emails made admin at sign-in, and, with an external issuer,
    // the access-token claims that carry a role and group names.
    ADMIN_EMAILS: z.string().optional(),
    OIDC_ROLE_CLAIM: optionalString.pipe(claimName),
    OIDC_GROUPS_CLAIM: optionalString.pipe(claimName),
    // Accounts the built-in provider lets one client address create per hour.
    IDP_SIGNUPS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
    // The beta access-code gate: comma-separated codes; none means one is generated and kept in the database.
    BETA_ACCESS_CODES: z.string().optional(),
    ACCESS_CODE_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),

    // The web app's runtime configuration (spec section 3).
    ANALYTICS_TAG_ID: z.string().default(''),
    HEATMAP_SITE_ID: z.coerce.number().int().min(0).default(0),
    HEATMAP_VERSION: z.coerce.number().int().min(0).default(6),
    CHAINLIT_URL: optionalUrl,
    CHAINLIT_DEMOS_URL: optionalUrl,
    API_URL: optionalUrl,
    FEEDBACK_URL: optionalUrl,

    // The chat runtime's language model (the built-in offline model unless a provider is set).
    LLM_PROVIDER: z.enum(['offline', 'openai', 'anthropic', 'openai-compatible']).default('offline'),
    LLM_MODEL: optionalString,
    LLM_API_KEY: optionalString,
    LLM_BASE_URL: optionalUrl,
    // The models on offer, as JSON (docs/configuration.md); unset, the four settings above are one model.
    LLM_MODELS: optionalString,
    LLM_DEFAULT_MODEL: optionalString,
    LLM_FIRST_BYTE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    LLM_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
    LLM_MAX_STEPS: z.coerce.number().int().min(1).max(100).default(10),
    LLM_MAX_TOOL_CALLS_PER_TURN: z.coerce.number().int().min(1).max(200).default(10),
    LLM_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(16).max(200_000).default(4096),
    LLM_CONTEXT_BUDGET: z.coerce.number().int().min(1000).max(10_000_000).default(32_000),

    // The ready assistant (Calculator, Date & Time, Notes) offered to a new account.
    READY_ASSISTANT: booleanFlag.default(true),

    // The public demos at /demos: session lifetime and per-address rate limits.
    DEMOS_ENABLED: booleanFlag.default(true),
    DEMO_IDLE_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(30),
    DEMO_MAX_HOURS: z.coerce.number().int().min(1).max(72).default(4),
    DEMO_LOGINS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(30),
    DEMO_CHAT_TURNS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(20),
    // Tools: the egress guard, built-in services' API hosts, OAuth2 apps, Composio, MCP servers.
    EGRESS_ALLOW_PRIVATE: z.string().default(''),
    BUILTIN_HACKERNEWS_URL: z.url().default('https://hacker-news.firebaseio.com'),
    BUILTIN_HACKERNEWS_SEARCH_URL: z.url().default('https://hn.algolia.com'),
    BUILTIN_WIKIPEDIA_URL: z.url().default('https://en.wikipedia.org'),
    BUILTIN_BRAVE_SEARCH_URL: z.url().default('https://api.search.brave.com'),
    BUILTIN_YOUTUBE_URL: z.url().default('https://www.googleapis.com'),
    BUILTIN_PLACES_URL: z.url().default('https://places.googleapis.com'),
    BUILTIN_WEATHER_URL: z.url().default('https://api.openweathermap.org'),
    GITHUB_CLIENT_ID: optionalString,
    GITHUB_CLIENT_SECRET: optionalString,
    GITHUB_AUTHORIZE_URL: z.url().default('https://github.com/login/oauth/authorize'),
    GITHUB_TOKEN_URL: z.url().default('https://github.com/login/oauth/access_token'),
    GITHUB_API_URL: z.url().default('https://api.github.com'),
    COMPOSIO_API_KEY: optionalString,
    COMPOSIO_BASE_URL: z.url().default('https://backend.composio.dev'),
    COMPOSIO_API_PREFIX: z
      .string()
      .regex(/^\/[A-Za-z0-9._/-]*$/, 'must be a path such as /api/v3')
      .default('/api/v3'),
    COMPOSIO_WEBHOOK_SECRET: optionalString,
    MCP_SERVERS: z.string().default('[]'),
    // Bounds on what an MCP server may send back (R11), for operators' and users' servers alike.
    MCP_MAX_TOOLS: z.coerce.number().int().min(1).max(100_000).default(500),
    MCP_MAX_TOOL_LIST_BYTES: z.coerce.number().int().min(1_024).max(1_073_741_824).default(2_097_152),
    MCP_MAX_RESULT_BYTES: z.coerce.number().int().min(1_024).max(1_073_741_824).default(1_048_576),
    MCP_CALL_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(60_000),
    CHAT_TURNS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(30),
    // Turns one instance streams at once; past it a new turn gets 429 instead of slowing every turn.
    // Unset: TURNS_PER_CORE per core of the machine (defaultMaxConcurrentTurns).
    CHAT_MAX_CONCURRENT: z.coerce.number().int().min(1).max(100_000).optional(),
    // How long an approval card can be answered; after it the card shows "Expired — ask again".
    CHAT_APPROVAL_TTL_SECONDS: z.coerce.number().int().min(5).max(86_400).default(900),
    // Runs of one trigger event in all: a run lost with its instance is retried up to this.
    TRIGGER_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
    // Trigger calls one agent accepts a minute, counted in the database across instances.
    TRIGGERS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
    // Knowledge files (E1-E3): what one upload may be, and the budget its text extraction runs in.
    KNOWLEDGE_MAX_FILE_BYTES: z.coerce.number().int().min(1_024).max(1_073_741_824).default(20_971_520),
    KNOWLEDGE_MAX_FILES_PER_AGENT: z.coerce.number().int().min(1).max(10_000).default(100),
    KNOWLEDGE_MAX_PDF_PAGES: z.coerce.number().int().min(1).max(100_000).default(2_000),
    KNOWLEDGE_MAX_UNZIPPED_BYTES: z.coerce.number().int().min(1_024).max(4_294_967_296).default(104_857_600),
    KNOWLEDGE_MAX_ZIP_ENTRIES: z.coerce.number().int().min(1).max(100_000).default(1_000),
    KNOWLEDGE_MAX_TEXT_CHARS: z.coerce.number().int().min(1_000).max(100_000_000).default(5_000_000),
    KNOWLEDGE_EXTRACT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
    KNOWLEDGE_EXTRACT_MEMORY_MB: z.coerce.number().int().min(32).max(8_192).default(256),
    // Embeddings for knowledge search: off unless a model is named; served by an offered model's API.
    KNOWLEDGE_EMBEDDING_MODEL: optionalString,
    KNOWLEDGE_EMBEDDING_FROM: optionalString,
    // An agent export with its files, as one zip: the most an import reads, packed and unpacked.
    KNOWLEDGE_MAX_ARCHIVE_BYTES: z.coerce.number().int().min(1_024).max(4_294_967_296).default(104_857_600),
    // File bytes in an S3-compatible bucket instead of the database: on when a bucket is named.
    KNOWLEDGE_S3_BUCKET: optionalString,
    KNOWLEDGE_S3_ENDPOINT: optionalUrl,
    KNOWLEDGE_S3_REGION: optionalString,
    KNOWLEDGE_S3_ACCESS_KEY_ID: optionalString,
    KNOWLEDGE_S3_SECRET_ACCESS_KEY: optionalString,
    KNOWLEDGE_S3_PATH_STYLE: z.enum(['true', 'false', '1', '0', '']).optional(),
    // Tokens (input + output) one user may use per calendar month (UTC); 0 means no budget.
    USER_MONTHLY_TOKEN_BUDGET: z.coerce.number().int().min(0).max(1_000_000_000_000).default(0),
    // Traces: OpenTelemetry is loaded and spans are exported over OTLP only when this is set. The
    // SDK itself reads the other standard OTEL_* variables (headers, protocol, sampler).
    OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
    OTEL_SERVICE_NAME: z.string().trim().min(1).max(200).default('cadre'),
    // Model-call spans carry prompt and answer text only when the operator opts in.
    OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: booleanFlag,
    // Prometheus metrics at /backend/metrics: off unless a scrape token is set (sent as a bearer token).
    METRICS_SCRAPE_TOKEN: optionalString.pipe(
      z.string().min(16, 'must be at least 16 characters (e.g. `openssl rand -hex 32`)').optional(),
    ),
  })
  .superRefine((env, ctx) => {
    if (env.LLM_MODELS !== undefined && (env.LLM_PROVIDER !== 'offline' || env.LLM_MODEL)) {
      ctx.addIssue({
        code: 'custom',
        path: ['LLM_MODELS'],
        message:
          'is set together with LLM_PROVIDER/LLM_MODEL: declare every model in LLM_MODELS and unset those',
      });
    }
    const mcp = parseMcpServers(env.MCP_SERVERS);
    if (typeof mcp === 'string') ctx.addIssue({ code: 'custom', path: ['MCP_SERVERS'], message: mcp });
    if (env.DATABASE_URL && !env.SECRETS_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['SECRETS_KEY'],
        message:
          'must be set when DATABASE_URL is set: every instance on one database seals and opens ' +
          'secrets (IdP keys, credentials, the access code) with this key. Generate one with ' +
          '`openssl rand -hex 32` and give every instance the same value',
      });
    }
    if (env.DATABASE_LISTEN_URL && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_LISTEN_URL'],
        message: 'is set without DATABASE_URL: it is the direct PostgreSQL connection beside DATABASE_URL',
      });
    }
    // A provider the server cannot call stops the start here, not at the first chat turn.
    const provider = env.LLM_PROVIDER;
    if (provider !== 'offline') {
      if (!env.LLM_MODEL) {
        ctx.addIssue({
          code: 'custom',
          path: ['LLM_MODEL'],
          message: `must name the model when LLM_PROVIDER=${provider} (for example gpt-4o-mini, claude-sonnet-4-5 or llama3.1)`,
        });
      }
      if (provider === 'openai-compatible' && !env.LLM_BASE_URL) {
        ctx.addIssue({
          code: 'custom',
          path: ['LLM_BASE_URL'],
          message:
            "must be set when LLM_PROVIDER=openai-compatible: the server's OpenAI-style API, e.g. http://127.0.0.1:11434/v1",
        });
      }
      if (provider !== 'openai-compatible' && !env.LLM_API_KEY) {
        ctx.addIssue({
          code: 'custom',
          path: ['LLM_API_KEY'],
          message: `must be set when LLM_PROVIDER=${provider}: the provider's API key`,
        });
      }
    }
    for (const claim of ['OIDC_ROLE_CLAIM', 'OIDC_GROUPS_CLAIM'] as const) {
      if (env[claim] && !env.OIDC_ISSUER) {
        ctx.addIssue({
          code: 'custom',
          path: [claim],
          message:
            'is set without OIDC_ISSUER: the built-in provider sends no role or group claims; ' +
            'set roles and groups in the admin console instead',
        });
      }
    }
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_HEADERS_TIMEOUT_MS'],
        message: 'must not be larger than HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)',
      });
    }
    if (env.DISABLE_AUTH && env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['DISABLE_AUTH'],
        message: 'must not be true when NODE_ENV=production (it makes every request the mock user)',
      });
    }
  });

export type Env = z.input<typeof envSchema>;

/** Every environment variable Cadre reads (docs/configuration.md documents each one). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

/** An operator-declared MCP server: Streamable HTTP by URL, or stdio by command (configuration only). */
const mcpServerSchema = z.union([
  z.strictObject({
    name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/i, 'letters, digits, - and _'),
    url: z.url(),
    headers: z.record(z.string(), z.string()).optional(),
  }),
  z.strictObject({
    name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/i, 'letters, digits, - and _'),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
  }),
]);
export type McpServerConfig = z.output<typeof mcpServerSchema>;

function parseMcpServers(text: string): McpServerConfig[] | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return 'must be a JSON array';
  }
  const parsed = z.array(mcpServerSchema).safeParse(raw);
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  const names = parsed.data.map((s) => s.name.toLowerCase());
  if (new Set(names).size !== names.length) return 'server names must be unique';
  return parsed.data;
}

export interface Config {
  env: 'production' | 'development' | 'test';
  host: string;
  port: number;
  /** The origin people reach Cadre at, without a trailing slash. */
  publicUrl: string;
  dataDir: string;
  database:
    | { kind: 'sqlite'; file: string }
    | {
        kind: 'postgres';
        url: string;
        /** Where the one LISTEN connection goes (DATABASE_LISTEN_URL), when not to `url`. */
        listenUrl?: string;
        poolSize: number;
        statementTimeoutMs: number;
        acquireTimeoutMs: number;
      };
  logLevel: string;
  /** `auto` writes text when stdout is a terminal and JSON otherwise (LOG_FORMAT). */
  logFormat: 'auto' | 'json' | 'text';
  trustProxy: boolean;
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  shutdownDrainDelayMs: number;
  /** How long a client may take to send a request, its headers, and stay idle (R11). */
  http: {
    requestTimeoutMs: number;
    headersTimeoutMs: number;
    keepAliveTimeoutMs: number;
    idleTimeoutMs: number;
  };
  /** The vault key from SECRETS_KEY; when unset, a key file in the data folder is used. */
  secretsKey?: Buffer;
  auth: {
    disabled: boolean;
    issuer: string;
    clientId: string;
    audience: string;
    redirectUri: string;
    logoutRedirectUri: string;
    /** True when the issuer is the built-in provider served by this process at /idp. */
    builtInIssuer: boolean;
    /** Sign-ups at the built-in provider allowed per client address per hour (IDP_SIGNUPS_PER_HOUR). */
    signUpsPerHour: number;
    /** Lower-cased emails made admin when they sign in (ADMIN_EMAILS). */
    adminEmails: string[];
    /** The access-token claim naming the account's role (OIDC_ROLE_CLAIM; external issuer only). */
    roleClaim?: string;
    /** The access-token claim listing the account's groups (OIDC_GROUPS_CLAIM; external issuer only). */
    groupsClaim?: string;
  };
  /**
   * Codes the access-code gate accepts (BETA_ACCESS_CODES). Empty means none is configured: the
   * server generates one, stores it sealed in the database and prints it at start-up.
   */
  accessCodes: string[];
  /** Access-code attempts, right or wrong, per client address per minute (ACCESS_CODE_ATTEMPTS_PER_MINUTE). */
  accessCodeAttemptsPerMinute: number;
  web: {
    analyticsTagId: string;
    heatmap: { siteId: number; version: number };
    chainlitUrl?: string;
    chainlitDemosUrl?: string;
    apiUrl?: string;
    feedbackUrl: string;
  };
  tools: {
    /** Hosts or CIDRs tools may reach although private (EGRESS_ALLOW_PRIVATE). */
    egressAllowPrivate: string[];
    builtin: {
      hackerNewsUrl: string;
      hackerNewsSearchUrl: string;
      wikipediaUrl: string;
      braveSearchUrl: string;
      youtubeUrl: string;
      placesUrl: string;
      weatherUrl: string;
    };
    github?: {
      clientId: string;
      clientSecret: string;
      authorizeUrl: string;
      tokenUrl: string;
      apiUrl: string;
    };
    composio?: { apiKey: string; baseUrl: string; apiPrefix: string };
    composioWebhookSecret?: string;
    mcpServers: McpServerConfig[];
    /** What an MCP server may send back: tools listed, bytes of the list and of one result, time per call. */
    mcpLimits: { maxTools: number; maxToolListBytes: number; maxResultBytes: number; callTimeoutMs: number };
  };
  llm: LlmConfig;
  /** Knowledge files: upload limits, the extraction budget, and embeddings when configured. */
  knowledge: KnowledgeConfig;
  triggers: {
    /** Runs of one event in all (TRIGGER_MAX_ATTEMPTS). */
    maxAttempts: number;
    /** Calls one agent's triggers accept a minute; past it 429 (TRIGGERS_PER_MINUTE). */
    perMinute: number;
  };
  usage: {
    /** Tokens one user may use per calendar month (UTC); 0 means no budget (USER_MONTHLY_TOKEN_BUDGET). */
    monthlyTokenBudget: number;
  };
  telemetry: {
    /** Where spans go (OTEL_EXPORTER_OTLP_ENDPOINT); unset: OpenTelemetry is not even loaded. */
    otlpEndpoint?: string;
    serviceName: string;
    /** Model-call spans carry prompt and answer text (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT). */
    captureMessageContent: boolean;
    /** The bearer token `/backend/metrics` asks for (METRICS_SCRAPE_TOKEN); unset: no metrics route. */
    metricsScrapeToken?: string;
  };
  agents: {
    /** Offer a new account the ready assistant to chat with at once (READY_ASSISTANT). */
    readyAssistant: boolean;
  };
  demos: {
    enabled: boolean;
    idleMinutes: number;
    maxHours: number;
    loginsPerHour: number;
    chatTurnsPerMinute: number;
  };
}

/**
 * Chat turns an instance runs at once by default, per core (`os.availableParallelism()`). With a
 * model that answers at once a turn costs 5 to 10 ms of the event loop's CPU, so about this many
 * keep the turns admitted answering in a few hundred milliseconds on a quiet machine, and the rest
 * are refused at once with 429 and Retry-After instead of slowing every turn (measured at c=50 on
 * 2 cores: docs/benchmarks.md, "Chat turn, second push"). Turns that wait seconds on a remote model
 * use little CPU meanwhile: such an instance is given a higher CHAT_MAX_CONCURRENT.
 */
export const TURNS_PER_CORE = 10;

export const defaultMaxConcurrentTurns = () => TURNS_PER_CORE * os.availableParallelism();

export interface LlmConfig {
  /** The models on offer, the built-in offline model last (LLM_MODELS or the single-model settings). */
  models: LlmModelConfig[];
  /** The id of the model agents without one of their own run on (LLM_DEFAULT_MODEL). */
  defaultModel: string;
  firstByteTimeoutMs: number;
  idleTimeoutMs: number;
  maxSteps: number;
  maxToolCallsPerTurn: number;
  maxOutputTokens: number;
  /** Chat turns (and approval decisions) one user may start per minute. */
  turnsPerMinute: number;
  /** Turns one instance runs at once; a turn past it is refused with 429 and Retry-After. */
  maxConcurrentTurns: number;
  /** How long a pending tool approval can be answered (CHAT_APPROVAL_TTL_SECONDS). */
  approvalTtlMs?: number;
}

/** `LLM_MODELS[1].base_url` from `['LLM_MODELS', 1, 'base_url']`. */
const pathName = (path: PropertyKey[]) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');

/** The offered models and the default, or the problems with LLM_MODELS and LLM_DEFAULT_MODEL. */
function llmModels(
  env: z.output<typeof envSchema>,
  source: Record<string, string | undefined>,
): { models: LlmModelConfig[]; defaultModel: string } | ModelsIssue[] {
  const { models: offered, issues } = parseLlmModels(env.LLM_MODELS, env, source);
  if (issues.length) return issues;
  const wanted = env.LLM_DEFAULT_MODEL;
  if (wanted !== undefined && !offered.some((m) => m.id === wanted)) {
    return [
      {
        path: ['LLM_DEFAULT_MODEL'],
        message: `must be one of the offered models: ${offered.map((m) => m.id).join(', ')} (got "${wanted}")`,
      },
    ];
  }
  return { models: offered, defaultModel: wanted ?? offered[0]?.id ?? OFFLINE_MODEL };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const stripSlash = (url: string) => url.replace(/\/+$/, '');

/** Validates the given environment (by default `process.env`) and builds the server's settings. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.') || '(environment)';
        const value = typeof issue.path[0] === 'string' ? source[issue.path[0]] : undefined;
        const shown = value === undefined ? 'not set' : `got ${JSON.stringify(value)}`;
        return `${name}: ${issue.message} (${shown})`;
      }),
    );
  }
  const env = parsed.data;
  const offered = llmModels(env, source);
  if (Array.isArray(offered)) {
    throw new ConfigError(offered.map((issue) => `${pathName(issue.path)}: ${issue.message}`));
  }
  const knowledge = knowledgeSettings(env, offered);
  if (typeof knowledge === 'string') throw new ConfigError([knowledge]);
  const publicUrl = stripSlash(env.PUBLIC_URL ?? `http://localhost:${env.PORT}`);
  // An external issuer is kept exactly as configured: Auth0's `iss` claim ends with a slash.
  const issuer = env.OIDC_ISSUER ?? `${publicUrl}/idp`;
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicUrl,
    dataDir: path.resolve(env.DATA_DIR),
    database: env.DATABASE_URL
      ? {
          kind: 'postgres',
          url: env.DATABASE_URL,
          listenUrl: env.DATABASE_LISTEN_URL,
          poolSize: env.DATABASE_POOL_SIZE,
          statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
          acquireTimeoutMs: env.DATABASE_ACQUIRE_TIMEOUT_MS,
        }
      : { kind: 'sqlite', file: path.resolve(env.DATA_DIR, 'cadre.sqlite') },
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    trustProxy: env.TRUST_PROXY,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    shutdownDrainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
    http: {
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      idleTimeoutMs: env.HTTP_IDLE_TIMEOUT_MS,
    },
    secretsKey: env.SECRETS_KEY ? parseSecretsKey(env.SECRETS_KEY) : undefined,
    auth: {
      disabled: env.DISABLE_AUTH,
      issuer,
      clientId: env.OIDC_CLIENT_ID,
      audience: env.OIDC_AUDIENCE ?? `${publicUrl}/backend`,
      redirectUri: env.OIDC_REDIRECT_URI ?? publicUrl,
      logoutRedirectUri: env.OIDC_LOGOUT_REDIRECT_URI ?? publicUrl,
      builtInIssuer: env.OIDC_ISSUER === undefined,
      signUpsPerHour: env.IDP_SIGNUPS_PER_HOUR,
      adminEmails: (env.ADMIN_EMAILS ?? '')
        .split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
      roleClaim: env.OIDC_ROLE_CLAIM,
      groupsClaim: env.OIDC_GROUPS_CLAIM,
    },
    accessCodeAttemptsPerMinute: env.ACCESS_CODE_ATTEMPTS_PER_MINUTE,
    accessCodes: (env.BETA_ACCESS_CODES ?? '')
      .split(',')
      .map((code) => code.trim())
      .filter(Boolean),
    web: {
      analyticsTagId: env.ANALYTICS_TAG_ID,
      heatmap: { siteId: env.HEATMAP_SITE_ID, version: env.HEATMAP_VERSION },
      chainlitUrl: env.CHAINLIT_URL,
      chainlitDemosUrl: env.CHAINLIT_DEMOS_URL,
      apiUrl: env.API_URL,
      feedbackUrl: env.FEEDBACK_URL ?? '',
    },
    triggers: { maxAttempts: env.TRIGGER_MAX_ATTEMPTS, perMinute: env.TRIGGERS_PER_MINUTE },
    knowledge,
    usage: { monthlyTokenBudget: env.USER_MONTHLY_TOKEN_BUDGET },
    telemetry: {
      otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
      serviceName: env.OTEL_SERVICE_NAME,
      captureMessageContent: env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT,
      metricsScrapeToken: env.METRICS_SCRAPE_TOKEN,
    },
    agents: { readyAssistant: env.READY_ASSISTANT },
    demos: {
      enabled: env.DEMOS_ENABLED,
      idleMinutes: env.DEMO_IDLE_MINUTES,
      maxHours: env.DEMO_MAX_HOURS,
      loginsPerHour: env.DEMO_LOGINS_PER_HOUR,
      chatTurnsPerMinute: env.DEMO_CHAT_TURNS_PER_MINUTE,
    },
    llm: {
      ...offered,
      firstByteTimeoutMs: env.LLM_FIRST_BYTE_TIMEOUT_MS,
      idleTimeoutMs: env.LLM_IDLE_TIMEOUT_MS,
      maxSteps: env.LLM_MAX_STEPS,
      maxToolCallsPerTurn: env.LLM_MAX_TOOL_CALLS_PER_TURN,
      maxOutputTokens: env.LLM_MAX_OUTPUT_TOKENS,
      turnsPerMinute: env.CHAT_TURNS_PER_MINUTE,
      maxConcurrentTurns: env.CHAT_MAX_CONCURRENT ?? defaultMaxConcurrentTurns(),
      approvalTtlMs: env.CHAT_APPROVAL_TTL_SECONDS * 1000,
    },
    tools: {
      egressAllowPrivate: env.EGRESS_ALLOW_PRIVATE.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      builtin: {
        hackerNewsUrl: stripSlash(env.BUILTIN_HACKERNEWS_URL),
        hackerNewsSearchUrl: stripSlash(env.BUILTIN_HACKERNEWS_SEARCH_URL),
        wikipediaUrl: stripSlash(env.BUILTIN_WIKIPEDIA_URL),
        braveSearchUrl: stripSlash(env.BUILTIN_BRAVE_SEARCH_URL),
        youtubeUrl: stripSlash(env.BUILTIN_YOUTUBE_URL),
        placesUrl: stripSlash(env.BUILTIN_PLACES_URL),
        weatherUrl: stripSlash(env.BUILTIN_WEATHER_URL),
      },
      github:
        env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET
          ? {
              clientId: env.GITHUB_CLIENT_ID,
              clientSecret: env.GITHUB_CLIENT_SECRET,
              authorizeUrl: env.GITHUB_AUTHORIZE_URL,
              tokenUrl: env.GITHUB_TOKEN_URL,
              apiUrl: stripSlash(env.GITHUB_API_URL),
            }
          : undefined,
      composio: env.COMPOSIO_API_KEY
        ? {
            apiKey: env.COMPOSIO_API_KEY,
            baseUrl: stripSlash(env.COMPOSIO_BASE_URL),
            apiPrefix: stripSlash(env.COMPOSIO_API_PREFIX),
          }
        : undefined,
      composioWebhookSecret: env.COMPOSIO_WEBHOOK_SECRET,
      mcpServers: parseMcpServers(env.MCP_SERVERS) as McpServerConfig[],
      mcpLimits: {
        maxTools: env.MCP_MAX_TOOLS,
        maxToolListBytes: env.MCP_MAX_TOOL_LIST_BYTES,
        maxResultBytes: env.MCP_MAX_RESULT_BYTES,
        callTimeoutMs: env.MCP_CALL_TIMEOUT_MS,
      },
    },
  };
}
