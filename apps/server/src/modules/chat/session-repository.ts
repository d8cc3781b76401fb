import { compiledOnce } from '../../db/compiled.ts';
import type { Db } from '../../db/database.ts';

const nowIso = () => new Date().toISOString();

/**
 * The `/chainlit` cookie sessions: only the SHA-256 of a session value is stored. A session names
 * its user and agent; deleting the agent deletes its sessions (foreign key cascade), and an agent
 * never changes owner, so a live row always names one of the user's own agents.
 */
export function createSessionRepository(db: Pick<Db, 'kysely'>) {
  const k = db.kysely;
  /** Every chat request's lookup, compiled once. */
  const live = compiledOnce(
    k,
    (idHash: string, now: string) =>
      k
        .selectFrom('chat_sessions')
        .select(['user_id', 'agent_id'])
        .where('id_hash', '=', idHash)
        .where('expires_at', '>', now)
        .where('revoked_at', 'is', null),
    'id_hash',
    'now',
  );
  /** Copilot tokens of these users issued up to `now` are refused from now on. */
  const revokeCopilotTokens = async (userIds: number[], now: string) => {
    for (const userId of userIds) {
      await k
        .insertInto('chat_revocations')
        .values({ user_id: userId, revoked_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ revoked_at: now }))
        .execute();
    }
  };
  return {
    async create(row: {
      idHash: string;
      userId: number;
      agentId: number;
      expiresAt: string;
      idpSid: string | undefined;
    }) {
      await k
        .insertInto('chat_sessions')
        .values({
          id_hash: row.idHash,
          user_id: row.userId,
          agent_id: row.agentId,
          expires_at: row.expiresAt,
          created_at: nowIso(),
          idp_sid: row.idpSid ?? null,
        })
        .execute();
    },

    async find(idHash: string): Promise<{ userId: number; agentId: number } | undefined> {
      const [row] = await live(idHash, nowIso());
      return row && { userId: row.user_id, agentId: row.agent_id };
    },

    /**
     * Sign-out (A4): revokes every live chat session of the user, and every copilot token issued
     * up to now. The rows stay, revoked, until they expire.
     */
    async revokeUser(userId: number) {
      const now = nowIso();
      await k
        .updateTable('chat_sessions')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute();
      await revokeCopilotTokens([userId], now);
    },

    /**
     * The end of one identity provider session (A4): revokes the chat sessions opened under `sid`
     * and the copilot tokens of their users, which carry no sid. When the caller knows the user,
     * only theirs, and also those opened with no sid (a token without one): they cannot be told
     * apart, so any of the user's provider sessions ending ends them. Sessions opened under
     * another provider session keep working.
     */
    async revokeIdpSession(sid: string, userId?: number) {
      const now = nowIso();
      let update = k.updateTable('chat_sessions').set({ revoked_at: now }).where('revoked_at', 'is', null);
      update =
        userId === undefined
          ? update.where('idp_sid', '=', sid)
          : update
              .where('user_id', '=', userId)
              .where((eb) => eb.or([eb('idp_sid', '=', sid), eb('idp_sid', 'is', null)]));
      const ended = await update.returning('user_id').execute();
      const users = new Set(ended.map((row) => row.user_id));
      if (userId !== undefined) users.add(userId);
      await revokeCopilotTokens([...users], now);
    },

    /** When the user last signed out, if ever. */
    async revokedAt(userId: number): Promise<string | undefined> {
      const row = await k
        .selectFrom('chat_revocations')
        .select('revoked_at')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.revoked_at;
    },

    /** Deletes the session, and every expired one with it. */
    async delete(idHash: string) {
      await k.deleteFrom('chat_sessions').where('id_hash', '=', idHash).execute();
      await k.deleteFrom('chat_sessions').where('expires_at', '<=', nowIso()).execute();
    },
  };
}
