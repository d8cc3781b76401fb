import { sql, type Kysely } from 'kysely';
import type { Group, GroupRef } from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { AuditLog } from '../../kernel.ts';

const nowIso = () => new Date().toISOString();

/** The `groups` and `group_members` tables (users module). */
export function createGroupsRepository(db: Db) {
  const k = db.kysely;
  const withCounts = () =>
    k.selectFrom('groups as g').select([
      'g.id',
      'g.name',
      'g.source',
      'g.created_at',
      'g.updated_at',
      (eb) =>
        eb
          .selectFrom('group_members as m')
          .select(sql<number>`count(*)`.as('n'))
          .whereRef('m.group_id', '=', 'g.id')
          .as('member_count'),
    ]);
  const toGroup = (
    row: Awaited<ReturnType<ReturnType<typeof withCounts>['executeTakeFirstOrThrow']>>,
  ): Group => ({
    ...row,
    member_count: Number(row.member_count ?? 0),
  });

  return {
    async list(): Promise<Group[]> {
      return (await withCounts().orderBy('g.name').orderBy('g.id').execute()).map(toGroup);
    },

    async find(id: number): Promise<Group | undefined> {
      const row = await withCounts().where('g.id', '=', id).executeTakeFirst();
      return row && toGroup(row);
    },

    /** A new hand-made group; undefined when one of that name exists already. */
    async create(name: string, trx: Kysely<Database>): Promise<number | undefined> {
      const now = nowIso();
      const row = await trx
        .insertInto('groups')
        .values({ name, source: 'manual', created_at: now, updated_at: now })
        .onConflict((oc) => oc.columns(['source', 'name']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    /** False when another hand-made group has the name. */
    async rename(id: number, name: string, trx: Kysely<Database>): Promise<boolean> {
      const taken = await trx
        .selectFrom('groups')
        .select('id')
        .where('source', '=', 'manual')
        .where('name', '=', name)
        .where('id', '<>', id)
        .executeTakeFirst();
      if (taken) return false;
      await trx.updateTable('groups').set({ name, updated_at: nowIso() }).where('id', '=', id).execute();
      return true;
    },

    async delete(id: number, trx: Kysely<Database>) {
      await trx.deleteFrom('groups').where('id', '=', id).execute();
    },

    /** True when the membership is new. */
    async addMember(groupId: number, userId: number, trx: Kysely<Database>): Promise<boolean> {
      const row = await trx
        .insertInto('group_members')
        .values({ group_id: groupId, user_id: userId, created_at: nowIso() })
        .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
        .returning('user_id')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** True when there was a membership to remove. */
    async removeMember(groupId: number, userId: number, trx: Kysely<Database>): Promise<boolean> {
      const result = await trx
        .deleteFrom('group_members')
        .where('group_id', '=', groupId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** The ids of a group's members, in the order they joined. */
    async memberIds(groupId: number): Promise<number[]> {
      const rows = await k
        .selectFrom('group_members')
        .select('user_id')
        .where('group_id', '=', groupId)
        .orderBy('created_at')
        .orderBy('user_id')
        .execute();
      return rows.map((row) => row.user_id);
    },

    /** The groups of each of these users, by name. */
    async ofUsers(userIds: number[]): Promise<Map<number, GroupRef[]>> {
      const found = new Map<number, GroupRef[]>();
      if (userIds.length === 0) return found;
      const rows = await k
        .selectFrom('group_members as m')
        .innerJoin('groups as g', 'g.id', 'm.group_id')
        .select(['m.user_id', 'g.id', 'g.name', 'g.source'])
        .where('m.user_id', 'in', userIds)
        .orderBy('g.name')
        .execute();
      for (const { user_id, ...group } of rows) found.set(user_id, [...(found.get(user_id) ?? []), group]);
      return found;
    },

    /**
     * Makes the user's claimed (`oidc`) groups exactly `names`, creating the groups that are new;
     * hand-made memberships are left alone. Returns the names joined and left.
     */
    async syncClaimed(userId: number, names: string[]): Promise<{ joined: string[]; left: string[] }> {
      return k.transaction().execute(async (trx) => {
        const now = nowIso();
        if (names.length > 0) {
          await trx
            .insertInto('groups')
            .values(
              names.map((name) => ({ name, source: 'oidc' as const, created_at: now, updated_at: now })),
            )
            .onConflict((oc) => oc.columns(['source', 'name']).doNothing())
            .execute();
        }
        const wanted =
          names.length === 0
            ? []
            : await trx
                .selectFrom('groups')
                .select(['id', 'name'])
                .where('source', '=', 'oidc')
                .where('name', 'in', names)
                .execute();
        const current = await trx
          .selectFrom('group_members as m')
          .innerJoin('groups as g', 'g.id', 'm.group_id')
          .select(['g.id', 'g.name'])
          .where('m.user_id', '=', userId)
          .where('g.source', '=', 'oidc')
          .execute();
        const wantedIds = new Set(wanted.map((g) => g.id));
        const currentIds = new Set(current.map((g) => g.id));
        const leaving = current.filter((g) => !wantedIds.has(g.id));
        const joining = wanted.filter((g) => !currentIds.has(g.id));
        if (leaving.length > 0) {
          await trx
            .deleteFrom('group_members')
            .where('user_id', '=', userId)
            .where(
              'group_id',
              'in',
              leaving.map((g) => g.id),
            )
            .execute();
        }
        if (joining.length > 0) {
          await trx
            .insertInto('group_members')
            .values(joining.map((g) => ({ group_id: g.id, user_id: userId, created_at: now })))
            .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
            .execute();
        }
        return { joined: joining.map((g) => g.name), left: leaving.map((g) => g.name) };
      });
    },
  };
}

export type GroupsRepository = ReturnType<typeof createGroupsRepository>;

/**
 * Sign-in with a groups claim (`claimed`; undefined: no claim, memberships stay): the user's
 * claimed groups become exactly those, and a change is audited.
 */
export async function syncClaimedGroups(
  deps: { groups: GroupsRepository; audit: AuditLog },
  userId: number,
  claimed: string[] | undefined,
) {
  if (claimed === undefined) return;
  const { joined, left } = await deps.groups.syncClaimed(userId, claimed);
  if (joined.length === 0 && left.length === 0) return;
  await deps.audit.record({
    userId,
    action: 'group.sync',
    objectType: 'user',
    objectId: userId,
    detail: { joined, left },
  });
}
