import { z } from 'zod';
import { embedOriginsField, pathIdSchema } from './agents.ts';

/** What an API key may do (docs/security.md, "API keys"). */
export const API_KEY_SCOPES = ['chat', 'copilot:mint', 'agents:read'] as const;
export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES);
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

/** Every key starts with this, so a leaked one is easy to recognise (and to scan for). */
export const API_KEY_PREFIX = 'cadre_';

export const apiKeyCreateSchema = z.strictObject({
  name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  scopes: z.array(apiKeyScopeSchema).min(1, 'needs at least one scope').max(API_KEY_SCOPES.length),
  /** Limits the key to these agents of the caller; null or absent: all of them. */
  agent_ids: z.array(z.number().int().min(1).max(2_147_483_647)).min(1).max(100).nullish(),
  /** When the key stops working (ISO 8601, in the future); null or absent: never. */
  expires_at: z.iso.datetime({ offset: true }).nullish(),
  /**
   * Web origins whose pages may call the agent API with this key (CORS); each exactly, no
   * wildcard; absent or empty: calls from code only (docs/security.md, "API keys").
   */
  allowed_origins: embedOriginsField.optional(),
});
export type ApiKeyCreate = z.infer<typeof apiKeyCreateSchema>;

/** What can change on a key once made: only the origins it may be used from. */
export const apiKeyUpdateSchema = z.strictObject({ allowed_origins: embedOriginsField });
export type ApiKeyUpdate = z.infer<typeof apiKeyUpdateSchema>;

export const apiKeySchema = z.object({
  id: z.number(),
  name: z.string(),
  /** The first characters of the key, to tell keys apart; never enough to use it. */
  prefix: z.string(),
  scopes: z.array(apiKeyScopeSchema),
  agent_ids: z.array(z.number()).nullable(),
  allowed_origins: z.array(z.string()),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.array(apiKeySchema);

/** The answer to creating a key: the only time the key itself is shown. */
export const apiKeyCreatedSchema = apiKeySchema.extend({ key: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

export const apiKeyParamsSchema = z.strictObject({ api_key_id: pathIdSchema });
