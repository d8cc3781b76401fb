import { z } from 'zod';

/** Largest id the database's 32-bit integer columns hold; larger ids are refused as bad input. */
export const MAX_ID = 2_147_483_647;

export const AGENT_LIMITS = {
  name: 100,
  description: 2_000,
  guidelines: 20_000,
  toolIds: 200,
  starters: 4,
  starter: 120,
  embedOrigins: 20,
} as const;

/** Text a database accepts: PostgreSQL refuses NUL characters in text columns. */
const storableText = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !value.includes('\u0000'), 'must not contain NUL characters');

export const requiredText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be blank')
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !value.includes('\u0000'), 'must not contain NUL characters');

export const idSchema = z.number().int().min(1).max(MAX_ID);

/** A numeric id in a path: `abc`, `-1`, `1.5` or an id beyond the integer range answer 422. */
export const pathIdSchema = z.coerce
  .number({ error: 'must be a positive integer' })
  .int('must be a positive integer')
  .min(1, 'must be a positive integer')
  .max(MAX_ID, 'is out of range');

/** The colours an agent may take: Chakra palette names, each with accessible solid and subtle tones. */
export const AGENT_COLORS = [
  'gray',
  'red',
  'orange',
  'yellow',
  'green',
  'teal',
  'blue',
  'cyan',
  'purple',
  'pink',
] as const;
export type AgentColor = (typeof AGENT_COLORS)[number];

/** The generated avatar styles an agent's icon may name as `avatar:<style>`. */
export const AGENT_AVATAR_STYLES = ['marble', 'beam', 'pixel', 'sunset', 'ring', 'bauhaus'] as const;

const EMOJI = /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator})/u;

/** An emoji (one grapheme, up to 16 code units for flags and skin tones) or `avatar:<style>`. */
export const iconField = z
  .string()
  .max(16, 'must be at most 16 characters')
  .refine(
    (value) =>
      AGENT_AVATAR_STYLES.some((style) => value === `avatar:${style}`) ||
      (EMOJI.test(value) && [...new Intl.Segmenter().segment(value)].length === 1),
    'must be one emoji or avatar:<style> with a style of ' + AGENT_AVATAR_STYLES.join(', '),
  )
  .nullable()
  .optional();

export const colorField = z.enum(AGENT_COLORS).nullable().optional();

export const toolSchema = z.object({
  id: z.number(),
  display_name: z.string(),
  name: z.string(),
  description: z.string(),
  logo: z.string().nullable(),
  /** The name of the service the tool belongs to. */
  app_name: z.string(),
});
export type Tool = z.infer<typeof toolSchema>;

/** A tool as attached to an agent: with the state of the caller's connection to its service. */
export const agentToolSchema = toolSchema.extend({
  /** The service's id, for the way to reconnect it. */
  service_id: z.number(),
  /** The caller has no active connection to the tool's service: it was disconnected or expired. */
  needs_reconnecting: z.boolean(),
});
export type AgentToolInfo = z.infer<typeof agentToolSchema>;

/** An agent's own fields as they are stored: in the API's answers, its versions and the user's export. */
export const agentFieldsSchema = z.object({
  name: z.string(),
  description: z.string(),
  guidelines: z.string().nullable(),
  /** An emoji or `avatar:<style>`; null shows the default. */
  icon: z.string().nullable(),
  /** One of AGENT_COLORS; null shows the brand colour. */
  color: z.enum(AGENT_COLORS).nullable(),
  /** Prompts the owner offers in the empty chat; `[]` when none were written. */
  starters: z.array(z.string()),
  /** The offered model the agent answers with (`GET /api/v1/models`); null: the default. */
  model_id: z.string().nullable(),
  /** Sampling temperature, 0-2; null: the provider's default. */
  temperature: z.number().nullable(),
});
export type AgentFields = z.infer<typeof agentFieldsSchema>;

/** The agent editor's name for `allow_unattended_writes`; refusals name it so owners can find it. */
export const UNATTENDED_WRITES_SETTING = 'Allow write actions in unattended runs';

/**
 * What a write or send call asked through the OpenAI-compatible API or the agent's MCP server
 * does: `approve` (the default) stores it as a pending approval and the answer ends with a link
 * to approve it in Cadre; `refuse` refuses it with a clear error. Never runs it unapproved.
 */
export const API_WRITES = ['approve', 'refuse'] as const;
export type ApiWrites = (typeof API_WRITES)[number];

/** The agent editor's name for `api_writes` and its choices; refusals name them. */
export const API_WRITES_SETTING = 'Write actions asked through the API or MCP';
export const API_WRITES_CHOICES: Record<ApiWrites, string> = {
  approve: 'Ask me to approve them in Cadre',
  refuse: 'Refuse them',
};

export const agentSchema = z.object({
  id: z.number(),
  ...agentFieldsSchema.shape,
  /** False when `model_id` is no longer offered: the agent answers with the default model. */
  model_available: z.boolean(),
  /**
   * "Allow write actions in unattended runs": a trigger's run uses the agent's write and send
   * tools without anyone approving them (off: they are refused there). A permission, not content:
   * versions and export documents leave it out, so a restore or an import never turns it on.
   */
  allow_unattended_writes: z.boolean(),
  /**
   * "Write actions asked through the API or MCP" (see API_WRITES): `approve` ends the answer with
   * a link to approve the call in Cadre, `refuse` refuses it. A permission, not content, like
   * `allow_unattended_writes`: a restored or imported agent has the default, `approve`.
   */
  api_writes: z.enum(API_WRITES),
  tools: z.array(agentToolSchema),
  /**
   * The origins whose pages may embed the agent's copilot (`scheme://host[:port]`). Access
   * control, not the agent's content: not kept in its versions or its export.
   */
  embed_origins: z.array(z.string()),
});
export type Agent = z.infer<typeof agentSchema>;

export const agentListSchema = z.array(agentSchema);

export const guidelinesField = storableText(AGENT_LIMITS.guidelines)
  .nullable()
  .optional()
  // Blank guidelines are stored as null (spec section 5).
  .transform((value) => (value === undefined || value === null || value.trim() === '' ? null : value));

/**
 * Up to four starters, each trimmed, non-blank and at most 120 characters. `null` or `[]` clears
 * them (the chat then derives examples from the tools).
 */
export const startersField = z
  .array(requiredText(AGENT_LIMITS.starter), { error: 'must be a list of texts' })
  .max(AGENT_LIMITS.starters, `must hold at most ${AGENT_LIMITS.starters} starters`)
  .nullable()
  .transform((value) => value ?? []);

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A web origin as the browser sends it in `Origin`: https, or http on this machine only; no
 * path, query, fragment or credentials. Answers the normalised `scheme://host[:port]`, or
 * undefined when the text is not such an origin.
 */
export function normaliseOrigin(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname))) {
    return undefined;
  }
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return undefined;
  return url.origin;
}

/** Up to 20 distinct origins allowed to embed the agent's copilot, each normalised. */
export const embedOriginsField = z
  .array(
    z
      .string()
      .max(300, 'must be at most 300 characters')
      .transform((value, ctx) => {
        const origin = normaliseOrigin(value);
        if (origin === undefined) {
          ctx.addIssue({
            code: 'custom',
            message: 'must be an origin like https://example.com (http only for localhost), with no path',
          });
          return z.NEVER;
        }
        return origin;
      }),
    { error: 'must be a list of origins' },
  )
  .max(AGENT_LIMITS.embedOrigins, `must hold at most ${AGENT_LIMITS.embedOrigins} origins`)
  .transform((origins) => [...new Set(origins)]);
/** An offered model's id; null (or absent on create) is the default. Unknown ids answer 422. */
export const modelIdField = z
  .string()
  .trim()
  .min(1, 'must not be blank; null chooses the default model')
  .max(100, 'must be at most 100 characters')
  .nullable()
  .optional();

export const temperatureField = z
  .number({ error: 'must be a number from 0 to 2, or null for the default' })
  .min(0, 'must be from 0 to 2')
  .max(2, 'must be from 0 to 2')
  .nullable()
  .optional();

const toolIdsField = z
  .array(idSchema)
  .max(AGENT_LIMITS.toolIds, `must hold at most ${AGENT_LIMITS.toolIds} tools`);

/** `POST /api/v1/agents/`. Unknown fields (id, user_id, created_at...) answer 422. */
export const agentCreateSchema = z.strictObject({
  name: requiredText(AGENT_LIMITS.name),
  description: requiredText(AGENT_LIMITS.description),
  guidelines: guidelinesField,
  icon: iconField,
  color: colorField,
  tool_ids: toolIdsField.default([]),
  starters: startersField.default([]),
  embed_origins: embedOriginsField.default([]),
  model_id: modelIdField,
  temperature: temperatureField,
  allow_unattended_writes: z.boolean().default(false),
  api_writes: z.enum(API_WRITES).default('approve'),
  /** Set when the agent is a copy of one of the caller's agents; recorded in the audit log. */
  duplicated_from: idSchema.optional(),
});
export type AgentCreate = z.input<typeof agentCreateSchema>;

/**
 * `PATCH /api/v1/agents/{agent_id}`: every field is optional and only the fields sent change
 * (the web app sends all four). `guidelines: null` or blank clears the guidelines.
 */
export const agentUpdateSchema = z.strictObject({
  name: requiredText(AGENT_LIMITS.name).optional(),
  description: requiredText(AGENT_LIMITS.description).optional(),
  guidelines: storableText(AGENT_LIMITS.guidelines)
    .nullable()
    .optional()
    .transform((value) =>
      value === undefined ? undefined : value === null || value.trim() === '' ? null : value,
    ),
  icon: iconField,
  color: colorField,
  tool_ids: toolIdsField.optional(),
  starters: startersField.optional(),
  embed_origins: embedOriginsField.optional(),
  model_id: modelIdField,
  temperature: temperatureField,
  allow_unattended_writes: z.boolean().optional(),
  api_writes: z.enum(API_WRITES).optional(),
});
export type AgentUpdate = z.input<typeof agentUpdateSchema>;

export const agentParamsSchema = z.strictObject({ agent_id: pathIdSchema });

export const TRIGGER_BODY_LIMIT_BYTES = 65_536;

export const triggerParamsSchema = z.strictObject({
  agent_id: pathIdSchema,
  trigger_id: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9._:-]+$/, 'may hold letters, digits and . _ : - only'),
});

/** Any JSON object; the chat module decides what the agent does with it. */
export const triggerBodySchema = z.record(z.string(), z.unknown());

export const triggerAcceptedSchema = z.object({ id: z.number() });
