import type { Kysely } from 'kysely';
import { compiledOnce } from '../../db/compiled.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { UserIdentity } from '../../kernel.ts';
import { DEFAULT_ROLE, type Role } from '@cadre/contract';

const USER_COLUMNS = [
  'id',
  'issuer',
  'subject',
  'email',
  'name',
  'picture',
  'role',
  'created_at',
  'updated_at',
] as const;

/** A user's row as first stored, from the identity a token or sign-up named. */
function newUserRow(identity: UserIdentity, role: Role = DEFAULT_ROLE) {
  const now = new Date().toISOString();
  return {
    issuer: identity.issuer,
    subject: identity.subject,
    email: identity.email ?? null,
    name: identity.name ?? null,
    picture: identity.picture ?? null,
    role,
    created_at: now,
    updated_at: now,
  };
}

export function createUsersRepository(db: Db) {
  const k = db.kysely;
  /** The per-request lookup: one query on the (issuer, subject) unique index, compiled once. */
  const lookup = compiledOnce(
    k,
    (issuer: string, subject: string) =>
      k
        .selectFrom('users')
        .select([
          'id',
          'email',
          'name',
          'picture',
          'role',
          'disabled_at',
          'last_active_at',
          'admitted_at',
          'previous_deletion_at',
        ])
        .where('issuer', '=', issuer)
        .where('subject', '=', subject),
    'issuer',
    'subject',
  );
  const findByIdentity = async (issuer: string, subject: string) => (await lookup(issuer, subject))[0];
  return {
    findByIdentity,

    /**
     * Inserts the user unless another request created it first; either way returns the row.
     * `previousDeletionAt`: when an earlier account of the identity was deleted (see service.ts).
     */
    async insertIfMissing(
      identity: UserIdentity,
      role: Role,
      {
        firstIsAdmin,
        previousDeletionAt = null,
      }: { firstIsAdmin: boolean; previousDeletionAt?: string | null },
    ) {
      const inserted = await k
        .insertInto('users')
        .values({ ...newUserRow(identity, role), previous_deletion_at: previousDeletionAt })
        .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
        .returning('id')
        .executeTakeFirst();
      // The first account runs the install (a fresh one, or one whose users are all demo visitors
      // or gone): it becomes the admin while nobody is, unless the operator names the admins.
      if (inserted && firstIsAdmin) {
        await k
          .updateTable('users')
          .set({ role: 'admin' })
          .where('id', '=', inserted.id)
          .where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom('users').select('id').where('role', '=', 'admin'))),
          )
          .execute();
      }
      return (await findByIdentity(identity.issuer, identity.subject))!;
    },

    /** Records the user's activity (the caller writes it at most once an hour). */
    async touch(id: number, at: string) {
      await k.updateTable('users').set({ last_active_at: at }).where('id', '=', id).execute();
    },

    /** Inserts a user in the caller's transaction and returns its id. */
    async insert(identity: UserIdentity, trx: Kysely<Database>): Promise<number> {
      const row = await trx
        .insertInto('users')
        .values(newUserRow(identity))
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Deletes the listed users of one issuer; their rows go with them (ON DELETE CASCADE). */
    async deleteIssuedBy(issuer: string, ids: number[]): Promise<number> {
      let deleted = 0;
      // In slices, so no statement carries more parameters than a database accepts.
      for (let i = 0; i < ids.length; i += 200) {
        const result = await k
          .deleteFrom('users')
          .where('issuer', '=', issuer)
          .where('id', 'in', ids.slice(i, i + 200))
          .executeTakeFirst();
        deleted += Number(result.numDeletedRows);
      }
      return deleted;
    },

    /** Sets `admitted_at` unless it is set; true when this call set it. */
    async admit(id: number, record: (trx: Kysely<Database>) => Promise<void>): Promise<boolean> {
      return k.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('users')
          .set({ admitted_at: new Date().toISOString() })
          .where('id', '=', id)
          .where('admitted_at', 'is', null)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        await record(trx);
        return true;
      });
    },

    getProfile(id: number) {
      return k.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
    },

    /** The profile of an account that may act (not disabled): an API key's owner. */
    getActiveProfile(id: number) {
      return k
        .selectFrom('users')
        .select(USER_COLUMNS)
        .where('id', '=', id)
        .where('disabled_at', 'is', null)
        .executeTakeFirst();
    },

    /** `record` runs in the update's transaction (the audit record), so both commit or neither does. */
    async updateProfile(
      id: number,
      fields: { email: string | null; name: string | null; picture: string | null; role: Role },
      record: (trx: Kysely<Database>) => Promise<void>,
    ) {
      await k.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ ...fields, updated_at: new Date().toISOString() })
          .where('id', '=', id)
          .execute();
        await record(trx);
      });
    },

    /**
     * The user's own row; every module's rows went before it (see UserDataOwner). The identity's
     * hash is kept with the time, so tokens issued until then never bring the user back.
     */
    async deleteUser(userId: number, identityHash: string, trx: Kysely<Database>) {
      await trx.deleteFrom('users').where('id', '=', userId).execute();
      const deletedAt = new Date().toISOString();
      await trx
        .insertInto('deleted_identities')
        .values({ identity_hash: identityHash, deleted_at: deletedAt })
        .onConflict((oc) => oc.column('identity_hash').doUpdateSet({ deleted_at: deletedAt }))
        .execute();
    },

    /** When the identity's account was last deleted, if ever. */
    async deletedAt(identityHash: string): Promise<string | undefined> {
      const row = await k
        .selectFrom('deleted_identities')
        .select('deleted_at')
        .where('identity_hash', '=', identityHash)
        .executeTakeFirst();
      return row?.deleted_at;
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
