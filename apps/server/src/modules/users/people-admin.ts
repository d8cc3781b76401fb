import {
  deletionConfirmationOf,
  type PeopleQuery,
  type Person,
  type PersonDelete,
  type PersonUpdate,
  type WorkspaceSettings,
  type WorkspaceSettingsUpdate,
} from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import { writeSetting } from '../../db/settings.ts';
import { HttpError, notFound, ValidationFailure } from '../../http/errors.ts';
import type { AuditLog, AuthUser } from '../../kernel.ts';
import { LAST_ADMIN_DETAIL } from '../../security/policy.ts';
import { createGroupsRepository } from './groups-repository.ts';
import { createPeopleRepository, type PersonRow } from './people-repository.ts';
import type { MonthUsage } from './ports.ts';
import { DEFAULT_ROLE_SETTING, defaultRoleOf } from './default-role.ts';
import type { UsersService } from './service.ts';

export interface PeopleAdminDeps {
  db: Db;
  audit: AuditLog;
  users: Pick<UsersService, 'deleteData' | 'onDisable'>;
  usage: MonthUsage;
  /** Issuers of users nobody signs in as (demo visitors): never listed, changed or deleted here. */
  hiddenIssuers: readonly string[];
}

export const personNotFound = () => notFound('Person not found');

const authUserOf = (row: PersonRow): AuthUser => ({
  id: row.id,
  issuer: row.issuer,
  subject: row.subject,
  email: row.email,
  name: row.name,
  picture: row.picture,
  role: row.role,
});

/**
 * The admin console's People and settings (issue 26 item 3): accounts with their role, groups and
 * this month's usage; role changes, disabling and deletion, each audited; the role new accounts
 * get. The workspace always keeps an active admin.
 */
export function createPeopleAdmin(deps: PeopleAdminDeps) {
  const { db, audit } = deps;
  const people = createPeopleRepository(db, deps.hiddenIssuers);
  const groups = createGroupsRepository(db);

  /** The rows as the People list shows them, with groups and this month's usage. */
  const present = async (rows: PersonRow[]): Promise<Person[]> => {
    const ids = rows.map((r) => r.id);
    const [groupsOf, usage] = await Promise.all([groups.ofUsers(ids), deps.usage.monthTotals(ids)]);
    return rows.map(({ issuer: _i, subject: _s, ...row }) => ({
      ...row,
      groups: groupsOf.get(row.id) ?? [],
      month_tokens: usage.get(row.id)?.tokens ?? 0,
      month_cost: usage.get(row.id)?.cost ?? null,
    }));
  };

  const findOrThrow = async (id: number) => {
    const row = await people.find(id);
    if (!row) throw personNotFound();
    return row;
  };

  /** Refuses to leave the workspace without an active admin (`row` would stop being one). */
  const keepAnAdmin = async (row: PersonRow, trx: Parameters<typeof people.otherActiveAdmins>[1]) => {
    if (row.role !== 'admin' || row.disabled_at !== null) return;
    if ((await people.otherActiveAdmins(row.id, trx)) === 0)
      throw new HttpError('conflict', LAST_ADMIN_DETAIL);
  };

  /** Ends what the account holds on every instance: its sessions, runs and cached API keys. */
  const stopEverything = async (user: AuthUser) => {
    await db.signals.publish('cadre_user_disabled', String(user.id));
    for (const hook of deps.users.onDisable) await hook(user);
  };

  return {
    async page(filter: PeopleQuery, after: number, limit: number) {
      const rows = await people.page(filter, after, limit);
      return { people: await present(rows), nextAfter: rows.length === limit ? rows.at(-1)!.id : null };
    },

    async get(id: number): Promise<Person> {
      return (await present([await findOrThrow(id)]))[0]!;
    },

    /** Several people by id, in the order given (a group's members); unknown ids are left out. */
    async some(ids: number[]): Promise<Person[]> {
      const rows = (await Promise.all(ids.map((id) => people.find(id)))).filter((r) => r !== undefined);
      return present(rows);
    },

    async update(actor: AuthUser, id: number, change: PersonUpdate): Promise<Person> {
      const row = await findOrThrow(id);
      const disabling = change.disabled === true && row.disabled_at === null;
      await db.kysely.transaction().execute(async (trx) => {
        const demoting = change.role !== undefined && change.role !== 'admin';
        if (demoting || disabling) await keepAnAdmin(row, trx);
        if (change.role !== undefined && change.role !== row.role) {
          await people.setRole(id, change.role, trx);
          await audit.record(
            {
              userId: actor.id,
              action: 'user.role_change',
              objectType: 'user',
              objectId: id,
              detail: { from: row.role, to: change.role, by: 'admin' },
            },
            trx,
          );
        }
        if (change.disabled !== undefined && (await people.setDisabled(id, change.disabled, trx))) {
          await audit.record(
            {
              userId: actor.id,
              action: change.disabled ? 'user.disable' : 'user.enable',
              objectType: 'user',
              objectId: id,
            },
            trx,
          );
        }
      });
      if (disabling) await stopEverything(authUserOf(row));
      return this.get(id);
    },

    async delete(actor: AuthUser, id: number, request: PersonDelete) {
      const row = await findOrThrow(id);
      if (request.confirmation !== deletionConfirmationOf(row)) {
        throw new ValidationFailure([
          {
            loc: ['body', 'confirmation'],
            msg: 'must be the account’s email (its name, or its id, when it has none) typed again',
            type: 'value_error',
          },
        ]);
      }
      const heir = request.agents_to === null ? undefined : await people.find(request.agents_to);
      if (request.agents_to !== null && (!heir || heir.id === id || heir.disabled_at !== null)) {
        throw new ValidationFailure([
          {
            loc: ['body', 'agents_to'],
            msg: 'must be another account that is not disabled',
            type: 'value_error',
          },
        ]);
      }
      await db.kysely.transaction().execute((trx) => keepAnAdmin(row, trx));
      const user = authUserOf(row);
      await deps.users.deleteData(user, { agentsTo: heir && authUserOf(heir) });
      // The deleted account's cached API keys go on every instance, as a disabled one's do.
      await db.signals.publish('cadre_user_disabled', String(id));
      // Like a deletion of one's own account, the record names no one deleted: only that it happened.
      await audit.record({
        userId: actor.id,
        action: 'admin.user_delete',
        objectType: 'user',
        detail: { agents: heir ? 'transferred' : 'deleted', ...(heir && { agents_to: heir.id }) },
      });
    },

    async settings(): Promise<WorkspaceSettings> {
      return { default_role: await defaultRoleOf(db) };
    },

    async updateSettings(actor: AuthUser, change: WorkspaceSettingsUpdate): Promise<WorkspaceSettings> {
      if (change.default_role !== undefined) {
        const role = change.default_role;
        await db.kysely.transaction().execute(async (trx) => {
          await writeSetting(trx, DEFAULT_ROLE_SETTING, role);
          await audit.record(
            { userId: actor.id, action: 'workspace.settings_change', detail: { default_role: role } },
            trx,
          );
        });
      }
      return this.settings();
    },
  };
}

export type PeopleAdmin = ReturnType<typeof createPeopleAdmin>;
