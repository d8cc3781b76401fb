import type { Group, GroupCreate, GroupUpdate } from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { AuditLog, AuthUser } from '../../kernel.ts';
import { createGroupsRepository } from './groups-repository.ts';
import { createPeopleRepository } from './people-repository.ts';
import { personNotFound } from './people-admin.ts';

const groupNotFound = () => notFound('Group not found');
const CLAIMED_DETAIL =
  "This group is kept in sync with the identity provider's groups claim: change it at the provider";

/**
 * The admin console's Groups (issue 26 item 2): hand-made groups are created, renamed, deleted and
 * given members here; groups from the issuer's claim are listed but changed only by sign-in.
 */
export function createGroupsAdmin(deps: { db: Db; audit: AuditLog; hiddenIssuers: readonly string[] }) {
  const { db, audit } = deps;
  const groups = createGroupsRepository(db);
  const people = createPeopleRepository(db, deps.hiddenIssuers);

  /** The group, which must be hand-made to be changed. */
  const editable = async (id: number): Promise<Group> => {
    const group = await groups.find(id);
    if (!group) throw groupNotFound();
    if (group.source !== 'manual') throw new HttpError('conflict', CLAIMED_DETAIL);
    return group;
  };
  const taken = (name: string) => new HttpError('conflict', `A group named “${name}” exists already`);

  return {
    list: () => groups.list(),

    async get(id: number): Promise<Group> {
      const group = await groups.find(id);
      if (!group) throw groupNotFound();
      return group;
    },

    async create(actor: AuthUser, { name }: GroupCreate): Promise<Group> {
      const id = await db.kysely.transaction().execute(async (trx) => {
        const created = await groups.create(name, trx);
        if (created === undefined) throw taken(name);
        await audit.record(
          {
            userId: actor.id,
            action: 'group.create',
            objectType: 'group',
            objectId: created,
            detail: { name },
          },
          trx,
        );
        return created;
      });
      return this.get(id);
    },

    async rename(actor: AuthUser, id: number, { name }: GroupUpdate): Promise<Group> {
      const group = await editable(id);
      await db.kysely.transaction().execute(async (trx) => {
        if (!(await groups.rename(id, name, trx))) throw taken(name);
        await audit.record(
          {
            userId: actor.id,
            action: 'group.rename',
            objectType: 'group',
            objectId: id,
            detail: { from: group.name, to: name },
          },
          trx,
        );
      });
      return this.get(id);
    },

    async delete(actor: AuthUser, id: number) {
      const group = await editable(id);
      await db.kysely.transaction().execute(async (trx) => {
        await groups.delete(id, trx);
        await audit.record(
          {
            userId: actor.id,
            action: 'group.delete',
            objectType: 'group',
            objectId: id,
            detail: { name: group.name },
          },
          trx,
        );
      });
    },

    async memberIds(id: number): Promise<number[]> {
      await this.get(id);
      return groups.memberIds(id);
    },

    /** Adds (`member` true) or removes a person; nothing is recorded when nothing changed. */
    async setMember(actor: AuthUser, id: number, userId: number, member: boolean) {
      const group = await editable(id);
      if (!(await people.find(userId))) throw personNotFound();
      await db.kysely.transaction().execute(async (trx) => {
        const changed = member
          ? await groups.addMember(id, userId, trx)
          : await groups.removeMember(id, userId, trx);
        if (!changed) return;
        await audit.record(
          {
            userId: actor.id,
            action: member ? 'group.member_add' : 'group.member_remove',
            objectType: 'group',
            objectId: id,
            detail: { name: group.name, user_id: userId },
          },
          trx,
        );
      });
    },
  };
}

export type GroupsAdmin = ReturnType<typeof createGroupsAdmin>;
