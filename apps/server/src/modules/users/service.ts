import type { UserExport, UserProfile } from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import type { AuditLog, AuthUser, BeforeUserDelete, UserDirectory, UserIdentity } from '../../deps.ts';
import { createUsersRepository } from './repository.ts';

export interface UsersService extends UserDirectory {
  /** Stores the claims' name, email and picture and returns the profile (sign-in). */
  checkUser(user: AuthUser, claims: Omit<UserIdentity, 'issuer' | 'subject'>): Promise<UserProfile>;
  exportData(user: AuthUser): Promise<UserExport>;
  deleteData(user: AuthUser): Promise<void>;
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

export function createUsersService(db: Db, audit: AuditLog): UsersService {
  const repo = createUsersRepository(db);
  const beforeUserDelete: BeforeUserDelete[] = [];

  return {
    beforeUserDelete,

    async resolve(identity) {
      const row =
        (await repo.findByIdentity(identity.issuer, identity.subject)) ??
        (await repo.insertIfMissing(identity));
      return { ...row, issuer: identity.issuer, subject: identity.subject };
    },

    create: (identity, trx) => repo.insert(identity, trx),

    deleteIssuedBy: (issuer, ids) => repo.deleteIssuedBy(issuer, ids),

    async checkUser(user, claims) {
      await repo.updateProfile(
        user.id,
        {
          email: claims.email ?? user.email,
          name: claims.name ?? user.name,
          picture: claims.picture ?? user.picture,
        },
        (trx) =>
          audit.record(
            { userId: user.id, action: 'user.sign_in', objectType: 'user', objectId: user.id },
            trx,
          ),
      );
      const profile = await repo.getProfile(user.id);
      if (!profile) throw notFound();
      return profile;
    },

    async exportData(user) {
      const [profile, rows] = await Promise.all([repo.getProfile(user.id), repo.exportRows(user.id)]);
      const toolIds = new Map<number, number[]>();
      for (const t of rows.tools) {
        const list = toolIds.get(t.agent_id) ?? [];
        list.push(t.action_id);
        toolIds.set(t.agent_id, list);
      }
      const result: UserExport = {
        exported_at: new Date().toISOString(),
        profile: profile ?? null,
        agents: rows.agents.map((a) => ({
          ...a,
          starters: a.starters ? (JSON.parse(a.starters) as string[]) : [],
          tool_ids: toolIds.get(a.id) ?? [],
        })),
        agent_versions: rows.versions.map((v) => ({ ...v, snapshot: parseJson(v.snapshot) })),
        services: rows.services,
        connections: rows.connections,
        threads: rows.threads,
        messages: rows.messages.map(({ rating, comment, rated_at, ...m }) => ({
          ...m,
          parts: parseJson(m.parts),
          feedback: rating ? { rating, comment, updated_at: rated_at } : null,
        })),
        trigger_events: rows.triggers,
        audit_events: rows.audit.map((e) => ({ ...e, detail: parseJson(e.detail) })),
      };
      // Recorded after reading, so the export does not contain its own event.
      await audit.record({ userId: user.id, action: 'user.export', objectType: 'user', objectId: user.id });
      return result;
    },

    async deleteData(user) {
      for (const hook of beforeUserDelete) await hook(user);
      await repo.deleteAll(user.id);
      // Kept without a user id: the record that a deletion happened outlives the user's rows.
      await audit.record({ userId: null, action: 'user.delete', objectType: 'user', objectId: user.id });
    },
  };
}
