import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ApprovalsTable } from '../../db/schema.ts';

export type ApprovalRow = Selectable<ApprovalsTable>;

const nowIso = () => new Date().toISOString();

/**
 * Stored tool approvals: each binds one tool call, its canonical arguments and their hash to the
 * user who may decide it. Every query carries the owner (`user_id`).
 */
export function createApprovalRepository(db: Db) {
  const k = db.kysely;
  return {
    /** Stores a pending call; it expires `ttlMs` after it is created (one clock reading for both). */
    async insert(row: Omit<ApprovalRow, 'decided_at' | 'created_at' | 'expires_at'>, ttlMs: number) {
      const created = Date.now();
      await k
        .insertInto('approvals')
        .values({
          ...row,
          created_at: new Date(created).toISOString(),
          expires_at: new Date(created + ttlMs).toISOString(),
          decided_at: null,
        })
        .execute();
    },

    async find(userId: number, approvalId: string): Promise<ApprovalRow | undefined> {
      return k
        .selectFrom('approvals')
        .selectAll()
        .where('id', '=', approvalId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    async list(userId: number, threadId: string): Promise<ApprovalRow[]> {
      return k
        .selectFrom('approvals')
        .selectAll()
        .where('thread_id', '=', threadId)
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute();
    },

    /**
     * The atomic step of an approval: moves `from` to `to` only if the row is still `from`, belongs
     * to the user and (for pending rows) has not expired, or, to expire one, has. Returns whether
     * this caller won.
     */
    async transition(userId: number, approvalId: string, from: string, to: string): Promise<boolean> {
      let query = k
        .updateTable('approvals')
        .set({ status: to, decided_at: nowIso() })
        .where('id', '=', approvalId)
        .where('user_id', '=', userId)
        .where('status', '=', from);
      if (from === 'pending') query = query.where('expires_at', to === 'expired' ? '<=' : '>', nowIso());
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The tool call ids of the thread's pending approvals. */
    async listPending(userId: number, threadId: string): Promise<string[]> {
      const pending = await k
        .selectFrom('approvals')
        .select('tool_call_id')
        .where('thread_id', '=', threadId)
        .where('user_id', '=', userId)
        .where('status', '=', 'pending')
        .execute();
      return pending.map((p) => p.tool_call_id);
    },

    async expirePending(userId: number, threadId: string) {
      await k
        .updateTable('approvals')
        .set({ status: 'expired', decided_at: nowIso() })
        .where('thread_id', '=', threadId)
        .where('user_id', '=', userId)
        .where('status', '=', 'pending')
        .execute();
    },
  };
}

export type ApprovalRepository = ReturnType<typeof createApprovalRepository>;
