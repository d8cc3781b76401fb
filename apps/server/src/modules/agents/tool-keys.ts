import type { Kysely } from 'kysely';
import type { AgentExportTool } from '@cadre/contract';
import type { Database } from '../../db/schema.ts';

/** The stable name of a tool on any server: provider, service key and tool slug. */
export const toolKey = (t: { provider: string; service_key: string; tool_name: string }) =>
  JSON.stringify([t.provider, t.service_key, t.tool_name]);

/**
 * The live actions the user may attach (catalog services or their own) that match the keys, each
 * with its service. A key no such action has is simply absent from the answer.
 */
export async function findToolsByKeys(k: Kysely<Database>, userId: number, keys: AgentExportTool[]) {
  if (!keys.length) return [];
  return k
    .selectFrom('actions')
    .innerJoin('services', 'services.id', 'actions.service_id')
    .select([
      'actions.id',
      'actions.version',
      'actions.name as tool_name',
      'services.id as service_id',
      'services.provider',
      'services.provider_key as service_key',
    ])
    .where('actions.deprecated', '=', 0)
    .where((eb) =>
      eb.or([eb('services.owner_user_id', 'is', null), eb('services.owner_user_id', '=', userId)]),
    )
    .where((eb) =>
      eb.or(
        keys.map((t) =>
          eb.and([
            eb('services.provider', '=', t.provider),
            eb('services.provider_key', '=', t.service_key),
            eb('actions.name', '=', t.tool_name),
          ]),
        ),
      ),
    )
    .orderBy('actions.id')
    .execute();
}
