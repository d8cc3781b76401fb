import { z } from 'zod';
import { pathIdSchema, toolSchema } from './agents.ts';

/** Services and their tools (spec sections 3 and 7). */

export const SERVICE_LIMITS = {
  apiKey: 4_096,
  customName: 80,
  customUrl: 2_000,
  customDescription: 500,
  headerName: 100,
  headerValue: 4_096,
} as const;

/**
 * Public paths (under the API prefix `/backend`) that providers send the browser or events to:
 * declared once for the routes, the redirect URIs given to providers, and the public-route list.
 */
export const SERVICE_PUBLIC_PATHS = {
  oauthCallback: '/api/v1/public/oauth2/callback/',
  composioAuthRedirect: '/api/v1/public/:service_id/composio_auth_redirect/',
  composioWebhook: '/api/v1/public/composio-webhook',
  /** Built-in services' logos: immutable files named by their content hash. */
  logo: '/api/v1/public/logos/:file',
} as const;

/** A service as the caller sees it: ACTIVE when the caller has an active connection to it. */
export const serviceSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  logo: z.string().nullable(),
  status: z.enum(['ACTIVE', 'INACTIVE']),
  /** API_KEY, NO_AUTH / NO_OAUTH, or an OAuth scheme (spec section 3). */
  auth_schemes: z.array(z.string()),
  /** When a tool call last used the caller's connection (ISO 8601); null when never, or not connected. */
  last_used_at: z.string().nullable(),
  /**
   * The last error a tool call met on the caller's connection (no secrets) and when; null when
   * none since the connection was saved.
   */
  last_error: z.object({ message: z.string(), at: z.string() }).nullable(),
});
export type Service = z.infer<typeof serviceSchema>;
export const serviceListSchema = z.array(serviceSchema);

/** A service's action (tool), in the same shape as an agent's tools. */
export const serviceActionSchema = toolSchema;
export const serviceActionListSchema = z.array(serviceActionSchema);

export const serviceParamsSchema = z.object({ service_id: pathIdSchema });

/**
 * What a registration answers: ACTIVE when connected at once; INITIATED with the URL the browser
 * opens (in a new tab) to finish an OAuth connection.
 */
export const registrationSchema = z.object({
  redirectUrl: z.string().nullable(),
  connectionStatus: z.string(),
});
export type Registration = z.infer<typeof registrationSchema>;

/** `register_api_service`: the key is trimmed; blank or too long answers 422 naming `api_key`. */
export const apiKeyBodySchema = z.strictObject({
  api_key: z
    .string()
    .trim()
    .min(1, 'must not be blank')
    .max(SERVICE_LIMITS.apiKey, `must be at most ${SERVICE_LIMITS.apiKey} characters`),
});

const atMost = (max: number) => `At most ${max} characters`;
const requiredText = (max: number) => z.string().trim().min(1, 'Must not be empty').max(max, atMost(max));
/** Optional text: absent, null or blank all mean "not given". */
const optionalText = (max: number) => z.string().trim().max(max, atMost(max)).nullish();
/** A field that could start a process: refused by name (F2), never ignored. */
const processField = z
  .never({ error: 'MCP servers are added by URL only; commands are never run' })
  .optional()
  .describe('Refused: MCP servers are added by URL only');
/** Headers the transport sets itself; a user value would break or hijack the request. */
const RESERVED_HEADERS = /^(host|cookie|content-length|connection|transfer-encoding)$/i;

/**
 * A user's own remote MCP server (Streamable HTTP, by URL only). Strict: an unknown field answers
 * 422 naming it, and the fields that could start a process (`command`, `args`, `env`, `stdio`,
 * `transport`, `cwd`) are declared only to be refused by name. The server still checks the URL
 * against the egress guard and probes it.
 */
export const customMcpServerBodySchema = z
  .strictObject({
    name: requiredText(SERVICE_LIMITS.customName),
    url: requiredText(SERVICE_LIMITS.customUrl),
    description: optionalText(SERVICE_LIMITS.customDescription),
    bearer_token: optionalText(SERVICE_LIMITS.headerValue),
    header_name: optionalText(SERVICE_LIMITS.headerName)
      .refine((name) => !name || /^[A-Za-z0-9-]+$/.test(name), 'Not a valid header name')
      .refine((name) => !name || !RESERVED_HEADERS.test(name), 'This header cannot be set'),
    header_value: optionalText(SERVICE_LIMITS.headerValue),
    command: processField,
    args: processField,
    env: processField,
    stdio: processField,
    transport: processField,
    cwd: processField,
  })
  .refine((body) => !body.header_name === !body.header_value, {
    path: ['header_value'],
    message: 'Give both a header name and a header value',
  });
export type CustomMcpServerBody = z.infer<typeof customMcpServerBodySchema>;

/** Query of the OAuth and Composio callbacks: hints only, every value re-checked server-side. */
export const oauthCallbackQuerySchema = z
  .object({
    state: z.string().max(500).optional(),
    token: z.string().max(500).optional(),
    code: z.string().max(4_000).optional(),
    connectedAccountId: z.string().max(200).optional(),
    connected_account_id: z.string().max(200).optional(),
    status: z.string().max(50).optional(),
    error: z.string().max(200).optional(),
    iss: z.string().max(500).optional(),
  })
  .catchall(z.string().max(4_000).optional());

export const COMPOSIO_WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;
