import type { AgentRestoreResult, AgentSnapshotFile } from '@cadre/contract';
import type { AuditLog } from '../../kernel.ts';
import { notFound } from '../../http/errors.ts';
import type { ToolCatalog } from '../tools/index.ts';
import type { createAgentsRepository, ToolAttachment } from './repository.ts';
import { authorOf, type Saver } from './versions.ts';

interface RestoreDeps {
  repo: ReturnType<typeof createAgentsRepository>;
  /** Which of the tools a version lists the user may still attach (the tools module). */
  catalog: Pick<ToolCatalog, 'visibleActions'>;
  audit: AuditLog;
  offered: (modelId: string | null | undefined) => boolean;
  /** The allowed tools an update would detach (their "Allow without asking" goes with them). */
  revokedBy: (userId: number, agentId: number, tools: ToolAttachment) => Promise<number[]>;
}

/**
 * Puts the agent back as version `number` was, as a new version: fields, model, tools and files.
 * Tools no longer offered to the user and a model no longer offered are left out; files come back
 * from the agent's history, except those erased for good (or deleted before files were kept). The
 * answer lists what was left out, and the audit record counts it.
 */
export const restoreVersion =
  ({ repo, catalog, audit, offered, revokedBy }: RestoreDeps) =>
  async (user: Saver, agentId: number, number: number): Promise<AgentRestoreResult> => {
    const userId = user.id;
    if (!(await repo.exists(userId, agentId))) throw notFound('Agent not found');
    const version = await repo.findVersion(userId, agentId, number);
    if (!version) throw notFound('Version not found');
    const { name, description, guidelines, icon, color, starters, temperature, tools, files } =
      version.snapshot;
    const modelId = offered(version.snapshot.model_id) ? version.snapshot.model_id : null;
    const visible = new Map(
      (
        await catalog.visibleActions(
          userId,
          tools.map((t) => t.id),
        )
      ).map((a) => [a.id, a.version]),
    );
    const kept = [...new Set(tools.map((t) => t.id))].filter((id) => visible.has(id));
    const note = {
      reason: 'restore',
      savedBy: userId,
      author: authorOf(user),
      restoredFrom: number,
    } as const;
    const attach = kept.map((id) => ({ actionId: id, version: visible.get(id) ?? null }));
    const revoked = await revokedBy(userId, agentId, attach);
    let filesNotRestored: AgentSnapshotFile[] = [];
    const restored = await repo.update(
      userId,
      agentId,
      { name, description, guidelines, icon, color, starters, model_id: modelId, temperature },
      attach,
      note,
      async (trx, _agentId, atVersion) => {
        filesNotRestored = await repo.restoreFiles(trx, userId, agentId, files, atVersion);
        await audit.record(
          {
            userId,
            action: 'agent.restore',
            objectType: 'agent',
            objectId: agentId,
            detail: {
              version: number,
              tools: kept.length,
              tools_dropped: tools.length - kept.length,
              model_dropped: modelId !== version.snapshot.model_id,
              files: files.length - filesNotRestored.length,
              files_not_restored: filesNotRestored.length,
              ...(revoked.length ? { tool_permissions_revoked: revoked } : {}),
            },
          },
          trx,
        );
      },
    );
    if (!restored) throw notFound('Agent not found');
    const keptIds = new Set(kept);
    return {
      ...restored,
      files_not_restored: filesNotRestored,
      tools_not_restored: tools.filter((tool) => !keptIds.has(tool.id)),
      model_not_restored: modelId === version.snapshot.model_id ? null : version.snapshot.model_id,
    };
  };
