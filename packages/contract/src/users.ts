import { z } from 'zod';

export const userProfileSchema = z.object({
  id: z.number(),
  issuer: z.string(),
  subject: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  picture: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/** Everything Cadre stores about the caller (`GET /api/v1/users/me/export`); never credentials. */
export const userExportSchema = z.object({
  exported_at: z.string(),
  profile: userProfileSchema.nullable(),
  agents: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      description: z.string(),
      guidelines: z.string().nullable(),
      starters: z.array(z.string()),
      tool_ids: z.array(z.number()),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  ),
  /** Every saved version of the caller's agents (their snapshots, as JSON). */
  agent_versions: z.array(
    z.object({
      agent_id: z.number(),
      number: z.number(),
      reason: z.string(),
      restored_from: z.number().nullable(),
      saved_by: z.number().nullable(),
      author: z.string().nullable(),
      snapshot: z.unknown(),
      created_at: z.string(),
    }),
  ),
  services: z.array(
    z.object({
      id: z.number(),
      provider: z.string(),
      name: z.string(),
      description: z.string(),
      created_at: z.string(),
    }),
  ),
  connections: z.array(
    z.object({
      id: z.number(),
      service_id: z.number(),
      status: z.string(),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  ),
  threads: z.array(
    z.object({
      id: z.string(),
      agent_id: z.number(),
      name: z.string(),
      origin: z.string(),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  ),
  messages: z.array(
    z.object({
      id: z.string(),
      thread_id: z.string(),
      role: z.string(),
      parts: z.unknown(),
      status: z.string(),
      created_at: z.string(),
      /** The caller's thumbs up or down on an answer, with their comment. */
      feedback: z
        .object({ rating: z.string(), comment: z.string().nullable(), updated_at: z.string().nullable() })
        .nullable(),
    }),
  ),
  trigger_events: z.array(
    z.object({
      id: z.number(),
      agent_id: z.number(),
      trigger_id: z.string(),
      status: z.string(),
      created_at: z.string(),
    }),
  ),
  audit_events: z.array(
    z.object({
      id: z.number(),
      action: z.string(),
      object_type: z.string().nullable(),
      object_id: z.string().nullable(),
      detail: z.unknown(),
      created_at: z.string(),
    }),
  ),
});
export type UserExport = z.infer<typeof userExportSchema>;
