import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { MetricsRecorder } from '../../kernel.ts';

/** A running run whose heartbeat is older than this was lost with its instance. */
export const RUN_STALE_AFTER_MS = 15_000;
/** How often each instance looks for lost runs. */
export const SWEEP_EVERY_MS = 15_000;

/**
 * Ends runs lost with their instance (killed, or cut off from the database: it stopped beating
 * for them) as interrupted, keeping what they streamed; marks approvals nobody answered in time as
 * expired (K2). Returns how many runs it ended.
 */
export async function sweepLostRuns(
  db: Db,
  instanceId: string,
  log: FastifyBaseLogger,
  metrics?: Pick<MetricsRecorder, 'runLeasesExpired'>,
): Promise<number> {
  const k = db.kysely;
  const now = new Date().toISOString();
  const cutoff = new Date(Date.now() - RUN_STALE_AFTER_MS).toISOString();
  const lost = await k
    .updateTable('chat_runs')
    .set({ status: 'interrupted', ended_at: now })
    .where('status', '=', 'running')
    .where('heartbeat_at', '<', cutoff)
    .where('instance_id', '!=', instanceId)
    .returning(['message_id'])
    .execute();
  if (lost.length > 0) {
    await k
      .updateTable('messages')
      .set({ status: 'interrupted' })
      .where(
        'id',
        'in',
        lost.map((row) => row.message_id),
      )
      .where('status', '=', 'streaming')
      .execute();
    log.info({ runs: lost.length }, 'runs lost with their instance ended as interrupted');
    metrics?.runLeasesExpired(lost.length);
  }
  await k
    .updateTable('approvals')
    .set({ status: 'expired', decided_at: now })
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now)
    .execute();
  return lost.length;
}
