import type { Db } from '../../db/database.ts';

export interface IdpAccount {
  id: number;
  subject: string;
  email: string;
  name: string;
  password_hash: string;
}

/** SQL for the provider's accounts; emails are stored and looked up lower-cased. */
export function createAccountRepository(db: Db) {
  const columns = ['id', 'subject', 'email', 'name', 'password_hash'] as const;
  const findBy = (column: 'email' | 'subject', value: string): Promise<IdpAccount | undefined> =>
    db.kysely.selectFrom('idp_accounts').select(columns).where(column, '=', value).executeTakeFirst();
  return {
    findByEmail: (email: string) => findBy('email', email),
    findBySubject: (subject: string) => findBy('subject', subject),
    /** Inserts the account; resolves to undefined when the email is already taken. */
    async insert(account: Omit<IdpAccount, 'id'>): Promise<IdpAccount | undefined> {
      const now = new Date().toISOString();
      return db.kysely
        .insertInto('idp_accounts')
        .values({ ...account, created_at: now, updated_at: now })
        .onConflict((oc) => oc.column('email').doNothing())
        .returning(columns)
        .executeTakeFirst();
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
