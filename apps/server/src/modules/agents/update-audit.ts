import type { Kysely } from 'kysely';
import type { ApiWrites } from '@cadre/contract';
import type { Database } from '../../db/schema.ts';
import type { AuditLog } from '../../deps.ts';
import { AGENT_FIELD_COLUMNS } from './stored-fields.ts';

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

/** What writes the agent may make in runs nobody in Cadre's chat started. */
export interface WriteSettings {
  allowUnattendedWrites: boolean;
  apiWrites: ApiWrites;
}

/** The write settings as the API names them. */
export type WriteSettingInput = { allow_unattended_writes?: boolean; api_writes?: ApiWrites };

/** The write settings an input names (absent ones stay as they are). */
export const writeSettingsOf = (input: WriteSettingInput): Partial<WriteSettings> => ({
  ...(input.allow_unattended_writes === undefined
    ? {}
    : { allowUnattendedWrites: input.allow_unattended_writes }),
  ...(input.api_writes === undefined ? {} : { apiWrites: input.api_writes }),
});

/** A new agent's write settings: triggers refuse writes, API and MCP callers ask for approval. */
export const DEFAULT_WRITE_SETTINGS: WriteSettings = { allowUnattendedWrites: false, apiWrites: 'approve' };

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
