import { z } from 'zod';
import { pathIdSchema, toolSchema } from './agents.ts';

/** Services and their tools (spec sections 3 and 7). */

export const SERVICE_LIMITS = {
  apiKey: 4_096,
  customName: 80,
  customUrl: 2_000,
  headerName: 100,
  headerValue: 4_096,
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

/**
 * A user's own remote MCP server (Streamable HTTP, by URL only). The server checks the body
 * itself so that fields that could start a process (`command`, `args`, `env`, `stdio`,
 * `transport`) get a 422 naming them (F2); this schema describes the accepted fields.
 */
export const customMcpServerBodySchema = z.object({
  name: z.string().max(SERVICE_LIMITS.customName),
  url: z.string().max(SERVICE_LIMITS.customUrl),
  description: z.string().max(500).optional(),
  bearer_token: z.string().max(SERVICE_LIMITS.headerValue).optional(),
  header_name: z.string().max(SERVICE_LIMITS.headerName).optional(),
  header_value: z.string().max(SERVICE_LIMITS.headerValue).optional(),
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
