import { z } from 'zod';
import { pathIdSchema } from './agents.ts';

/**
 * Whether a write or send tool of an agent asks before each call ("Ask every time", the default)
 * or runs without asking ("Allow without asking"). Read tools always run without asking.
 * Unattended (trigger) runs keep their own setting, the agent's `allow_unattended_writes`.
 */
export const TOOL_PERMISSION_MODES = ['ask', 'allow'] as const;
export type ToolPermissionMode = (typeof TOOL_PERMISSION_MODES)[number];

export const toolPermissionSchema = z.object({
  /** The attached tool (an action id, as in the agent's `tools[].id`). */
  action_id: z.number(),
  display_name: z.string(),
  app_name: z.string(),
  effect: z.enum(['write', 'send']),
  mode: z.enum(TOOL_PERMISSION_MODES),
  /** Where "Allow without asking" was chosen ('chat' card or 'editor'), and when; null for 'ask'. */
  source: z.enum(['chat', 'editor']).nullable(),
  allowed_at: z.string().nullable(),
});
export type ToolPermission = z.infer<typeof toolPermissionSchema>;

/** `GET /api/v1/agents/{agent_id}/tool-permissions`: every attached write or send tool, in the agent's order. */
export const toolPermissionListSchema = z.object({ data: z.array(toolPermissionSchema) });

export const toolPermissionParamsSchema = z.strictObject({
  agent_id: pathIdSchema,
  action_id: pathIdSchema,
});

/**
 * `PUT /api/v1/agents/{agent_id}/tool-permissions/{action_id}`: sets one tool's mode (audited).
 * 404 for another user's agent or a tool not attached to it; 422 for a read tool.
 */
export const toolPermissionUpdateSchema = z.strictObject({
  mode: z.enum(TOOL_PERMISSION_MODES, { error: 'must be "ask" or "allow"' }),
});
