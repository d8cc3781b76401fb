import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AuditLog } from '../../deps.ts';
import { AGENT_FIELD_COLUMNS } from './stored-fields.ts';

/** What an update may name: the agent's own fields, and its lists, tools and setting. */
const UPDATABLE_FIELDS = [
  ...AGENT_FIELD_COLUMNS,
  'embed_origins',
  'tool_ids',
  'allow_unattended_writes',
] as const;

/** The fields an update names, for its audit record. */
export const changedFields = (input: Partial<Record<(typeof UPDATABLE_FIELDS)[number], unknown>>) =>
  UPDATABLE_FIELDS.filter((f) => input[f] !== undefined);

/** A change of "Allow write actions in unattended runs" is a security event of its own. */
export const recordUnattendedWrites = (
  audit: AuditLog,
  trx: Kysely<Database>,
  change: { userId: number; agentId: number; allowed: boolean },
) =>
  audit.record(
    {
      userId: change.userId,
      action: 'agent.unattended_writes',
      objectType: 'agent',
      objectId: change.agentId,
      detail: { allowed: change.allowed },
    },
    trx,
  );
