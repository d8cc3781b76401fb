import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AuditLog } from '../../deps.ts';

const UPDATABLE_FIELDS = [
  'name',
  'description',
  'guidelines',
  'icon',
  'color',
  'starters',
  'embed_origins',
  'model_id',
  'temperature',
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
