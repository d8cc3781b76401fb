import type { AgentVersion } from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import { deleteUserRows, moveUserRows, selectUserRows } from '../../db/user-rows.ts';
import type { UserDataOwner } from '../../kernel.ts';
import { AGENT_FIELD_COLUMNS, agentFieldsOf } from './stored-fields.ts';
import { VERSION_COLUMNS } from './versions.ts';

/** Who a version handed on with a deleted account's agents says saved it. */
export const DELETED_AUTHOR = 'a deleted account';

/** The user's agents with the tools attached to them, in order, their versions and tool permissions (P1). */
export function agentsUserData(db: Db): UserDataOwner {
  const k = db.kysely;
  return {
    name: 'agents',

    async exportFor(user) {
      const [agents, tools, versions, permissions] = await Promise.all([
        selectUserRows(k, 'agents', user.id)
          .select(['id', ...AGENT_FIELD_COLUMNS, 'created_at', 'updated_at'])
          .orderBy('id')
          .execute(),
        k
          .selectFrom('agent_tools')
          .innerJoin('agents', 'agents.id', 'agent_tools.agent_id')
          .select(['agent_tools.agent_id', 'agent_tools.action_id'])
          .where('agents.user_id', '=', user.id)
          .orderBy('agent_tools.agent_id')
          .orderBy('agent_tools.position')
          .execute(),
        selectUserRows(k, 'agent_versions', user.id)
          .select(['agent_id', ...VERSION_COLUMNS])
          .orderBy('agent_id')
          .orderBy('number')
          .execute(),
        selectUserRows(k, 'tool_permissions', user.id)
          .select(['agent_id', 'action_id', 'source', 'created_at'])
          .orderBy('agent_id')
          .orderBy('action_id')
          .execute(),
      ]);
      const toolIds = new Map<number, number[]>();
      for (const t of tools) toolIds.set(t.agent_id, [...(toolIds.get(t.agent_id) ?? []), t.action_id]);
      return {
        agents: agents.map((a) => ({
          ...agentFieldsOf(a),
          tool_ids: toolIds.get(a.id) ?? [],
        })),
        agent_versions: versions.map((v) => ({
          ...v,
          reason: v.reason as AgentVersion['reason'],
          snapshot: JSON.parse(v.snapshot) as unknown,
        })),
        tool_permissions: permissions,
      };
    },

    async deleteFor(user, trx) {
      const agentIds = trx.selectFrom('agents').select('id').where('user_id', '=', user.id);
      await deleteUserRows(trx, user.id, ['tool_permissions', 'agent_versions']);
      // agent_tools has no user_id: its rows are found through the user's agents, before they go.
      await trx.deleteFrom('agent_tools').where('agent_id', 'in', agentIds).execute();
      await deleteUserRows(trx, user.id, ['agents']);
    },

    async transferAgents(from, to, trx) {
      // The versions move too: a version's user is the agent's owner, who may restore it.
      await moveUserRows(trx, from.id, to.id, ['agents', 'agent_versions', 'tool_permissions']);
      // Who saved a version goes with the account (saved_by would take the version along, by its
      // cascade): the history keeps the save, naming nobody.
      await trx
        .updateTable('agent_versions')
        .set({ saved_by: null, author: DELETED_AUTHOR })
        .where('saved_by', '=', from.id)
        .execute();
    },
  };
}
