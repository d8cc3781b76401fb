import { sql, type Kysely } from 'kysely';
import type { PeopleQuery, Role } from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import type { Database } from '../../db/schema.ts';

const PERSON_COLUMNS = [
  'id',
  'issuer',
  'subject',
  'email',
  'name',
  'picture',
  'role',
  'disabled_at',
  'created_at',
  'last_active_at',
] as const;

/**
 * The admin console's reads and writes of `users`: accounts people sign in to, never the users of
 * `hiddenIssuers` (demo visitors, whom no token names).
 */
export function createPeopleRepository(db: Db, hiddenIssuers: readonly string[]) {
  const k = db.kysely;
  const people = () => {
    const query = k.selectFrom('users').select(PERSON_COLUMNS);
    return hiddenIssuers.length ? query.where('issuer', 'not in', hiddenIssuers) : query;
  };
  const like = db.dialect === 'sqlite' ? 'like' : 'ilike';
  return {
    /** A page of accounts by id after `after`, matching the search and role. */
    page(filter: PeopleQuery, after: number, limit: number) {
      let query = people().where('id', '>', after);
      if (filter.role) query = query.where('role', '=', filter.role);
      if (filter.q) {
        const pattern = containsPattern(filter.q);
        query = query.where(
          sql<boolean>`(email ${sql.raw(like)} ${pattern} escape '\\' or name ${sql.raw(like)} ${pattern} escape '\\')`,
        );
      }
      return query.orderBy('id').limit(limit).execute();
    },

    find(id: number, trx: Kysely<Database> = k) {
      let query = trx.selectFrom('users').select(PERSON_COLUMNS).where('id', '=', id);
      if (hiddenIssuers.length) query = query.where('issuer', 'not in', hiddenIssuers);
      return query.executeTakeFirst();
    },

    /**
     * Admins that may act (not disabled), other than `except`. On PostgreSQL their rows stay locked
     * until the transaction ends, so two admins demoting each other at once cannot both succeed
     * (SQLite runs one writing transaction at a time).
     */
    async otherActiveAdmins(except: number, trx: Kysely<Database>): Promise<number> {
      let query = trx
        .selectFrom('users')
        .select('id')
        .where('role', '=', 'admin')
        .where('disabled_at', 'is', null);
      if (db.dialect === 'postgres') query = query.forUpdate();
      const rows = await query.execute();
      return rows.filter((row) => row.id !== except).length;
    },

    /** Whether any account but `except` exists (demo visitors aside). */
    async othersExist(except: number): Promise<boolean> {
      return (await people().where('id', '<>', except).limit(1).executeTakeFirst()) !== undefined;
    },

    async setRole(id: number, role: Role, trx: Kysely<Database>) {
      await trx
        .updateTable('users')
        .set({ role, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
    },

    /** Sets or clears `disabled_at`; true when it changed. */
    async setDisabled(id: number, disabled: boolean, trx: Kysely<Database>): Promise<boolean> {
      const now = new Date().toISOString();
      const result = await trx
        .updateTable('users')
        .set({ disabled_at: disabled ? now : null, updated_at: now })
        .where('id', '=', id)
        .where('disabled_at', disabled ? 'is' : 'is not', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type PeopleRepository = ReturnType<typeof createPeopleRepository>;
export type PersonRow = NonNullable<Awaited<ReturnType<PeopleRepository['find']>>>;
