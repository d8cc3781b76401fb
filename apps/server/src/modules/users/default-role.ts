import { DEFAULT_ROLE, type Role } from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import { readSetting } from '../../db/settings.ts';

/** The settings row of the role new accounts get (see db/settings.ts); builder when absent. */
export const DEFAULT_ROLE_SETTING = 'workspace.default_role';

/** The role a new account gets now (read each time, so an admin's change reaches every instance). */
export const defaultRoleOf = async (db: Pick<Db, 'kysely'>): Promise<Role> =>
  (await readSetting<Role>(db, DEFAULT_ROLE_SETTING)) ?? DEFAULT_ROLE;
