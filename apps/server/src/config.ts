import path from 'node:path';
import { z } from 'zod';
import { parseSecretsKey } from './security/vault.ts';

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
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: booleanFlag,
    BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(262_144),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
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
    // The beta access-code gate: comma-separated codes; none means one is generated into the data folder.
    BETA_ACCESS_CODES: z.string().optional(),

    // The web app's runtime configuration (spec section 3).
    ANALYTICS_TAG_ID: z.string().default(''),
    HEATMAP_SITE_ID: z.coerce.number().int().min(0).default(0),
    HEATMAP_VERSION: z.coerce.number().int().min(0).default(6),
    CHAINLIT_URL: optionalUrl,
    CHAINLIT_DEMOS_URL: optionalUrl,
    API_URL: optionalUrl,
    FEEDBACK_URL: optionalUrl,
  })
  .superRefine((env, ctx) => {
    if (env.DISABLE_AUTH && env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['DISABLE_AUTH'],
        message: 'must not be true when NODE_ENV=production (it makes every request the mock user)',
      });
    }
  });

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: 'production' | 'development' | 'test';
  host: string;
  port: number;
  /** The origin people reach Cadre at, without a trailing slash. */
  publicUrl: string;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; poolSize: number };
  logLevel: string;
  trustProxy: boolean;
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
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
  };
  /**
   * Codes the access-code gate accepts (BETA_ACCESS_CODES). Empty means none is configured: the
   * server generates one into `<data>/access-code` and prints it at start-up.
   */
  accessCodes: string[];
  web: {
    analyticsTagId: string;
    heatmap: { siteId: number; version: number };
    chainlitUrl?: string;
    chainlitDemosUrl?: string;
    apiUrl?: string;
    feedbackUrl: string;
  };
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
      ? { kind: 'postgres', url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE }
      : { kind: 'sqlite', file: path.resolve(env.DATA_DIR, 'cadre.sqlite') },
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    secretsKey: env.SECRETS_KEY ? parseSecretsKey(env.SECRETS_KEY) : undefined,
    auth: {
      disabled: env.DISABLE_AUTH,
      issuer,
      clientId: env.OIDC_CLIENT_ID,
      audience: env.OIDC_AUDIENCE ?? `${publicUrl}/backend`,
      redirectUri: env.OIDC_REDIRECT_URI ?? publicUrl,
      logoutRedirectUri: env.OIDC_LOGOUT_REDIRECT_URI ?? publicUrl,
      builtInIssuer: env.OIDC_ISSUER === undefined,
    },
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
  };
}
