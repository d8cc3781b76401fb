import { z } from 'zod';
import { AGENT_COLORS } from './agents.ts';

/**
 * Agent templates: ready-made agents on the built-in services that need no account. One list, kept
 * by the server, feeds the Info page's example agents and the Agents screen's gallery; creating
 * from one connects its services for the caller and opens a working agent.
 */

export const agentTemplateSchema = z.object({
  /** Stable, readable id (`assistant`); the create call names it in its path. */
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** An emoji. */
  icon: z.string(),
  color: z.enum(AGENT_COLORS),
  /** What the chat offers to ask first; each one the offline model answers with the template's tools. */
  starters: z.array(z.string()),
  /** The names of the services it uses, connected on create when the caller has not yet. */
  services: z.array(z.string()),
});
export type AgentTemplate = z.infer<typeof agentTemplateSchema>;

export const agentTemplateListSchema = z.object({
  templates: z.array(agentTemplateSchema),
  /**
   * The template a new account is offered to chat with at once (READY_ASSISTANT); null when the
   * administrator switched the offer off.
   */
  ready_assistant: z.string().nullable(),
});
export type AgentTemplateList = z.infer<typeof agentTemplateListSchema>;

export const agentTemplateParamsSchema = z.object({
  template_id: z
    .string()
    .regex(/^[a-z0-9-]{1,50}$/, 'must be a template id: lower-case letters, digits and dashes'),
});
