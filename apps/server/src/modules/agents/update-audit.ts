import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AuditLog } from '../../kernel.ts';
import { AGENT_FIELD_COLUMNS } from './stored-fields.ts';
import type { WriteSettings } from './write-settings.ts';

/** What an update may name: the agent's own fields, and its lists, tools and settings. */
const UPDATABLE_FIELDS = [
  ...AGENT_FIELD_COLUMNS,
  'embed_origins',
  'tool_ids',
  'allow_unattended_writes',
  'api_writes',
] as const;

/** The fields an update names, for its audit record. */
export const changedFields = (input: Partial<Record<(typeof UPDATABLE_FIELDS)[number], unknown>>) =>
  UPDATABLE_FIELDS.filter((f) => input[f] !== undefined);

/**
 * Each change of a write setting is a security event of its own: "Allow write actions in
 * unattended runs" as `agent.unattended_writes` with `allowed`, "Write actions asked through the
 * API or MCP" as `agent.api_writes` with `mode`.
 */
export async function recordWriteSettings(
  audit: AuditLog,
  trx: Kysely<Database>,
  agent: { userId: number; agentId: number },
  before: WriteSettings,
  after: Partial<WriteSettings>,
) {
  const event = (action: string, detail: Record<string, string | boolean>) =>
    audit.record({ userId: agent.userId, action, objectType: 'agent', objectId: agent.agentId, detail }, trx);
  if (
    after.allowUnattendedWrites !== undefined &&
    after.allowUnattendedWrites !== before.allowUnattendedWrites
  )
    await event('agent.unattended_writes', { allowed: after.allowUnattendedWrites });
  if (after.apiWrites !== undefined && after.apiWrites !== before.apiWrites)
    await event('agent.api_writes', { mode: after.apiWrites });
}
