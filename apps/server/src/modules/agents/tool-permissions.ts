import type { ToolPermission, ToolPermissionMode } from '@cadre/contract';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { AuditLog } from '../../kernel.ts';
import { HttpError, notFound, ValidationFailure } from '../../http/errors.ts';
import { attachedTools, ownPermission } from './stored-fields.ts';
import { ownedAgent } from './owned-agent.ts';

/** Where a person chose to let a tool run without asking. */
export type PermissionSource = 'chat' | 'editor';

/**
 * Per agent and write/send tool: "Ask every time" (no row, the default) or "Allow without asking"
 * (a `tool_permissions` row). Every change is audited as `agent.tool_permission.update`; the rows
 * go with the agent, with the tool's detachment and with the user.
 */
export function toolPermissions(db: Db, audit: AuditLog) {
  const k = db.kysely;

  /** The agent's attached write and send tools with their mode, in the agent's order. */
  const attachedWrites = (userId: number, agentId: number, actionId?: number) => {
    let query = attachedTools(k, agentId)
      .innerJoin('agents', 'agents.id', 'agent_tools.agent_id')
      .leftJoin('tool_permissions', ownPermission)
      .select([
        'tool.action_id',
        'tool.display_name',
        'tool.effect',
        'tool.service_name as app_name',
        'tool_permissions.source',
        'tool_permissions.created_at as allowed_at',
      ])
      .where('agents.user_id', '=', userId);
    if (actionId !== undefined) query = query.where('agent_tools.action_id', '=', actionId);
    return query.execute();
  };

  const toOut = (row: Awaited<ReturnType<typeof attachedWrites>>[number]): ToolPermission => ({
    action_id: row.action_id,
    display_name: row.display_name,
    app_name: row.app_name,
    // An unknown effect is treated as a write, as the chat does.
    effect: row.effect === 'send' ? 'send' : 'write',
    mode: row.source ? 'allow' : 'ask',
    source: row.source === 'chat' || row.source === 'editor' ? row.source : null,
    allowed_at: row.allowed_at,
  });

  const agentExists = async (userId: number, agentId: number) =>
    !!(await ownedAgent(k, userId, agentId).select('id').executeTakeFirst());

  return {
    async list(userId: number, agentId: number): Promise<ToolPermission[]> {
      if (!(await agentExists(userId, agentId))) throw notFound('Agent not found');
      const rows = await attachedWrites(userId, agentId);
      return rows.filter((r) => r.effect !== 'read').map(toOut);
    },

    /** Sets one tool's mode; a change is audited, setting the mode it already has changes nothing. */
    async set(
      userId: number,
      agentId: number,
      actionId: number,
      mode: ToolPermissionMode,
      source: PermissionSource,
      detail: Record<string, string> = {},
    ): Promise<ToolPermission> {
      if (!(await agentExists(userId, agentId))) throw notFound('Agent not found');
      const [row] = await attachedWrites(userId, agentId, actionId);
      if (!row) throw notFound('This tool is not attached to the agent');
      if (row.effect === 'read') {
        throw new ValidationFailure([
          {
            loc: ['path', 'action_id'],
            msg: 'A read tool always runs without asking',
            type: 'read_tool',
          },
        ]);
      }
      const current = row.source ? 'allow' : 'ask';
      if (current !== mode) {
        await k.transaction().execute(async (trx) => {
          if (mode === 'allow') {
            await trx
              .insertInto('tool_permissions')
              .values({
                agent_id: agentId,
                action_id: actionId,
                user_id: userId,
                source,
                created_at: new Date().toISOString(),
              })
              .onConflict((oc) => oc.doNothing())
              .execute();
          } else {
            await trx
              .deleteFrom('tool_permissions')
              .where('agent_id', '=', agentId)
              .where('action_id', '=', actionId)
              .where('user_id', '=', userId)
              .execute();
          }
          await audit.record(
            {
              userId,
              action: 'agent.tool_permission.update',
              objectType: 'agent',
              objectId: agentId,
              detail: { action_id: actionId, mode, source, ...detail },
            },
            trx,
          );
        });
      }
      const [after] = await attachedWrites(userId, agentId, actionId);
      if (!after) throw new HttpError('conflict', 'This tool was detached while its permission changed');
      return toOut(after);
    },
  };
}

/** Inside an agent update's transaction: the choices for tools no longer attached go with them. */
export async function dropDetachedPermissions(
  trx: Kysely<Database>,
  agentId: number,
  keptActionIds: number[],
): Promise<number> {
  let query = trx.deleteFrom('tool_permissions').where('agent_id', '=', agentId);
  if (keptActionIds.length) query = query.where('action_id', 'not in', keptActionIds);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}
