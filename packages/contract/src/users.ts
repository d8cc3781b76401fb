import { z } from 'zod';
import { agentVersionSchema } from './agent-versions.ts';
import { agentFieldsSchema } from './agents.ts';
import { knowledgeFileSchema } from './knowledge.ts';
import { roleSchema } from './roles.ts';

export const userProfileSchema = z.object({
  id: z.number(),
  issuer: z.string(),
  subject: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  picture: z.string().nullable(),
  /** What the account may do (see roles.ts); set by an admin, ADMIN_EMAILS or the issuer's claim. */
  role: roleSchema,
  created_at: z.string(),
  updated_at: z.string(),
});

/** Everything Cadre stores about the caller (`GET /api/v1/users/me/export`); never credentials. */
export const userExportSchema = z.object({
  exported_at: z.string(),
  profile: userProfileSchema.nullable(),
  agents: z.array(
    z.object({
      id: z.number(),
      ...agentFieldsSchema.shape,
      tool_ids: z.array(z.number()),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  ),
  /** Every saved version of the caller's agents (their snapshots, as JSON). */
  agent_versions: z.array(
    z.object({
      agent_id: z.number(),
      ...agentVersionSchema.pick({
        number: true,
        reason: true,
        restored_from: true,
        saved_by: true,
        author: true,
      }).shape,
      // As it was saved: versions older than a field read without it.
      snapshot: z.unknown(),
      created_at: z.string(),
    }),
  ),
  /**
   * The caller's knowledge files: an attached one's bytes are at its `download` path (the API's
   * `GET /api/v1/agents/{agent_id}/files/{file_id}/content`), and its text as the passages below.
   * A deleted one (`detached_at`) is kept for the versions that list it; an erased one
   * (`erased_at`) has neither bytes nor passages left.
   */
  knowledge_files: z.array(
    knowledgeFileSchema.extend({
      agent_id: z.number(),
      detached_at: z.string().nullable(),
      erased_at: z.string().nullable(),
      download: z.string().nullable(),
    }),
  ),
  knowledge_passages: z.array(
    z.object({ file_id: z.string(), ordinal: z.number(), page: z.number().nullable(), text: z.string() }),
  ),
  /** Which versions of its agent list each file: from `from_version` up to `to_version` (excluded; null: still attached). */
  knowledge_file_spans: z.array(
    z.object({
      file_id: z.string(),
      agent_id: z.number(),
      from_version: z.number(),
      to_version: z.number().nullable(),
    }),
  ),
  /** The caller's "Allow without asking" choices: per agent, the write/send tools that run unasked. */
  tool_permissions: z.array(
    z.object({ agent_id: z.number(), action_id: z.number(), source: z.string(), created_at: z.string() }),
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
      last_used_at: z.string().nullable(),
      last_error: z.string().nullable(),
      last_error_at: z.string().nullable(),
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
  /** Agents whose triggers take signed calls: when their secret was made (the secret is never exported). */
  trigger_secrets: z.array(z.object({ agent_id: z.number(), created_at: z.string() })),
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
  /** Every tool call an agent made in the user's threads (also inside `messages`), with its outcome. */
  tool_calls: z.array(
    z.object({
      message_id: z.string(),
      thread_id: z.string(),
      tool_call_id: z.string(),
      tool_name: z.string(),
      state: z.string(),
      input: z.unknown(),
      output: z.unknown(),
      error_text: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
  approvals: z.array(
    z.object({
      id: z.string(),
      thread_id: z.string(),
      tool_call_id: z.string(),
      action_id: z.number(),
      args: z.unknown(),
      status: z.string(),
      expires_at: z.string(),
      created_at: z.string(),
      decided_at: z.string().nullable(),
    }),
  ),
  notes: z.array(
    z.object({
      id: z.number(),
      title: z.string(),
      body: z.string(),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  ),
  calendar_events: z.array(
    z.object({
      id: z.number(),
      title: z.string(),
      description: z.string(),
      location: z.string(),
      starts_at: z.string(),
      ends_at: z.string(),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  ),
  /** Chat answers as they were run: one row per run segment, with how it ended. */
  chat_runs: z.array(
    z.object({
      id: z.string(),
      run_id: z.string(),
      thread_id: z.string(),
      message_id: z.string(),
      status: z.string(),
      started_at: z.string(),
      ended_at: z.string().nullable(),
    }),
  ),
  /** Calls a copilot run made to functions of the page embedding it, with their results. */
  host_calls: z.array(
    z.object({
      id: z.string(),
      agent_id: z.number(),
      run_id: z.string(),
      name: z.string(),
      status: z.string(),
      result: z.unknown(),
      created_at: z.string(),
    }),
  ),
  /** Results of write tools a trigger's run made, kept so a retried run does not act twice. */
  tool_executions: z.array(z.object({ result: z.unknown(), created_at: z.string() })),
  /** Sign-in and chat sessions (never their secret values). */
  sessions: z.array(
    z.object({
      kind: z.enum(['identity', 'chat', 'demo']),
      agent_id: z.number().nullable(),
      created_at: z.string().nullable(),
      expires_at: z.string().nullable(),
    }),
  ),
  /** The built-in identity provider's account (never the password hash); null with another issuer. */
  identity_account: z.object({ email: z.string(), name: z.string(), created_at: z.string() }).nullable(),
  /** The caller's API keys, without the keys or their hashes. */
  api_keys: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      prefix: z.string(),
      scopes: z.unknown(),
      agent_ids: z.unknown(),
      expires_at: z.string().nullable(),
      last_used_at: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
  /** What each of the caller's agent runs used: tokens, model, cost, tool calls, how it ended. */
  usage: z.array(
    z.object({
      agent_id: z.number().nullable(),
      thread_id: z.string().nullable(),
      source: z.string(),
      model: z.string(),
      input_tokens: z.number(),
      output_tokens: z.number(),
      estimated: z.boolean(),
      cost: z.number().nullable(),
      tool_calls: z.number(),
      status: z.string(),
      continued: z.boolean(),
      created_at: z.string(),
    }),
  ),
});
export type UserExport = z.infer<typeof userExportSchema>;
export type UserProfile = z.infer<typeof userProfileSchema>;
