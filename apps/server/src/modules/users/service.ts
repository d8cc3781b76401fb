import type { UserExport, UserProfile } from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import { isTransactionConflict } from '../../db/unavailable.ts';
import { notFound } from '../../http/errors.ts';
import { keyedHasher } from '../../security/vault.ts';
import type { AuditLog, AuthUser, UserDataOwner, UserExportPart, UserIdentity } from '../../kernel.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createUsersRepository } from './repository.ts';

/** A user as sign-in finds them, with whether they passed the beta access-code gate. */
export interface ResolvedUser extends AuthUser {
  admitted: boolean;
}

/**
 * Runs before a user's rows are deleted. Modules that hold something for the user outside the
 * database (a provider connection, for example) register one to revoke it; a hook that throws
 * stops the deletion, so nothing is half-deleted and the user can retry.
 */
export type BeforeUserDelete = (user: AuthUser) => Promise<void>;

/** The users module: sign-in's directory, the users a module makes, and a user's data rights. */
export interface UsersService {
  /**
   * Finds the user by issuer + subject (never by email), creating the row on first sight; for
   * callers that are not a token (the mock user of DISABLE_AUTH, a sign-up). See {@link forToken}.
   */
  resolve(identity: UserIdentity): Promise<ResolvedUser>;
  /**
   * The user an access token names, created on first sight, as {@link resolve}; undefined when the
   * identity's account was deleted after the token was issued (`issuedAt`, its `iat` in seconds; a
   * token without one cannot show it came later), so a deleted account's token never recreates it.
   */
  forToken(identity: UserIdentity, issuedAt: number | undefined): Promise<ResolvedUser | undefined>;
  /**
   * Records that the user passed the beta access-code gate (once; later calls change nothing),
   * creating the user first when no token has named them yet (a sign-up at the built-in provider).
   */
  admit(identity: UserIdentity): Promise<void>;
  /** The user of an identity, if a token ever named it (never creates one). */
  find(identity: Pick<UserIdentity, 'issuer' | 'subject'>): Promise<AuthUser | undefined>;
  /** Extension point for other modules; see {@link BeforeUserDelete}. */
  readonly beforeUserDelete: BeforeUserDelete[];
  /** Every module that keeps rows about users; see `UserDataOwner` (kernel.ts). */
  readonly dataOwners: UserDataOwner[];
  /**
   * Creates the user of an identity no token names yet (a demo visitor) inside the caller's
   * transaction, so the user and what the caller creates for it commit together. Returns the id.
   */
  create(identity: UserIdentity, trx: Kysely<Database>): Promise<number>;
  /**
   * Deletes those of `ids` whose issuer is `issuer` (a module can only remove the users it made),
   * with every row they own. Returns how many went.
   */
  deleteIssuedBy(issuer: string, ids: number[]): Promise<number>;
  /** The user with this id, or undefined once deleted (an API key's owner). */
  byId(id: number): Promise<AuthUser | undefined>;
  /** Stores the claims' name, email and picture and returns the profile (sign-in). */
  checkUser(user: AuthUser, claims: Omit<UserIdentity, 'issuer' | 'subject'>): Promise<UserProfile>;
  exportData(user: AuthUser): Promise<UserExport>;
  deleteData(user: AuthUser): Promise<void>;
}

/**
 * A token counts as issued before a deletion unless its `iat` is more than this after it: the
 * leeway the token checks allow for an issuer's clock (http/auth.ts), so a token an issuer with a
 * fast clock signed just before the deletion is still refused.
 */
const DELETION_LEEWAY_SECONDS = 30;

/**
 * What `deleted_identities` keeps of an identity: an HMAC-SHA-256 of issuer and subject under a key
 * derived from the vault key `secret`, so the table names nobody (the subject is the user's
 * pseudonym at the issuer) yet a token's identity is recognised.
 */
function identityHasher(secret: Buffer): (identity: Pick<UserIdentity, 'issuer' | 'subject'>) => string {
  const hash = keyedHasher(secret, 'cadre/deleted-identity/v1');
  return ({ issuer, subject }) => hash(`${issuer}\n${subject}`);
}

/** Whether a token issued at `issuedAt` (seconds) came after a deletion at `deletedAt`. */
const issuedAfter = (deletedAt: string, issuedAt: number | undefined) =>
  issuedAt !== undefined && issuedAt > Date.parse(deletedAt) / 1000 + DELETION_LEEWAY_SECONDS;

/** How many times a deletion that lost to a concurrent transaction is run (see deleteData). */
const DELETE_ATTEMPTS = 3;

/** What an export holds when no module contributes to a key. */
const EMPTY_EXPORT: Required<UserExportPart> = {
  agents: [],
  agent_versions: [],
  knowledge_files: [],
  knowledge_passages: [],
  knowledge_file_spans: [],
  tool_permissions: [],
  services: [],
  connections: [],
  threads: [],
  messages: [],
  tool_calls: [],
  approvals: [],
  chat_runs: [],
  host_calls: [],
  tool_executions: [],
  notes: [],
  calendar_events: [],
  trigger_events: [],
  trigger_secrets: [],
  audit_events: [],
  sessions: [],
  identity_account: null,
  api_keys: [],
  usage: [],
};

/** Lists from several modules under one key (sessions) are joined; anything else is taken as is. */
function mergeParts(parts: UserExportPart[]): Required<UserExportPart> {
  const merged: Record<string, unknown> = { ...EMPTY_EXPORT };
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      const current = merged[key];
      merged[key] = Array.isArray(current) && Array.isArray(value) ? [...current, ...value] : value;
    }
  }
  return merged as Required<UserExportPart>;
}

/**
 * `secret`: the vault key (SECRETS_KEY or the data folder's key file), from which the key of
 * {@link identityHasher} is derived.
 */
export function createUsersService(db: Db, audit: AuditLog, { secret }: { secret: Buffer }): UsersService {
  const repo = createUsersRepository(db);
  const hashOf = identityHasher(secret);
  const beforeUserDelete: BeforeUserDelete[] = [];
  const dataOwners: UserDataOwner[] = [];

  type Row = NonNullable<Awaited<ReturnType<typeof repo.findByIdentity>>>;
  const resolved = (identity: UserIdentity, found: Row): ResolvedUser => {
    const { admitted_at, previous_deletion_at: _previous, ...row } = found;
    return { ...row, issuer: identity.issuer, subject: identity.subject, admitted: admitted_at !== null };
  };

  const resolve: UsersService['resolve'] = async (identity) =>
    resolved(
      identity,
      (await repo.findByIdentity(identity.issuer, identity.subject)) ??
        (await repo.insertIfMissing(identity)),
    );

  return {
    beforeUserDelete,
    dataOwners,

    resolve,

    async forToken(identity, issuedAt) {
      // A user made again after a deletion refuses the tokens issued before it.
      const accepted = (row: Row) =>
        row.previous_deletion_at === null || issuedAfter(row.previous_deletion_at, issuedAt)
          ? resolved(identity, row)
          : undefined;
      const found = await repo.findByIdentity(identity.issuer, identity.subject);
      if (found) return accepted(found);
      // Only a user with no row may have been deleted: the row and the record of its deletion go in
      // one transaction, so once the row is gone the record is there to read.
      const deletedAt = await repo.deletedAt(hashOf(identity));
      if (deletedAt !== undefined && !issuedAfter(deletedAt, issuedAt)) return undefined;
      return accepted(await repo.insertIfMissing(identity, deletedAt ?? null));
    },

    async find(identity) {
      const found = await repo.findByIdentity(identity.issuer, identity.subject);
      if (!found) return undefined;
      const { admitted_at: _admitted, ...row } = found;
      return { ...row, issuer: identity.issuer, subject: identity.subject };
    },

    async admit(identity) {
      const user = await resolve(identity);
      if (user.admitted) return;
      await repo.admit(user.id, (trx) =>
        audit.record({ userId: user.id, action: 'user.admit', objectType: 'user', objectId: user.id }, trx),
      );
    },

    create: (identity, trx) => repo.insert(identity, trx),

    deleteIssuedBy: (issuer, ids) => repo.deleteIssuedBy(issuer, ids),

    byId: (id) => repo.getProfile(id),

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
      const [profile, ...parts] = await Promise.all([
        repo.getProfile(user.id),
        ...dataOwners.map((owner) => owner.exportFor(user)),
      ]);
      const result: UserExport = {
        exported_at: new Date().toISOString(),
        profile: profile ?? null,
        ...mergeParts(parts as UserExportPart[]),
      };
      // Recorded after reading, so the export does not contain its own event.
      await audit.record({ userId: user.id, action: 'user.export', objectType: 'user', objectId: user.id });
      return result;
    },

    /**
     * Revokes what other systems hold (the hooks), then deletes every module's rows and the user's
     * own in one transaction, then empties SQLite's write-ahead log so no copy stays readable
     * there (free pages of the file are the operator's VACUUM; docs/security.md).
     */
    async deleteData(user) {
      for (const hook of beforeUserDelete) await hook(user);
      // A run of the user's still ending on another instance writes its last save meanwhile; on
      // PostgreSQL the two transactions can deadlock, and the loser is rolled back whole. The
      // deletion then simply runs again (the run has ended by then), instead of answering 500.
      for (let attempt = 1; ; attempt += 1) {
        try {
          await db.kysely.transaction().execute(async (trx) => {
            for (const owner of dataOwners) await owner.deleteFor(user, trx);
            await repo.deleteUser(user.id, hashOf(user), trx);
          });
          break;
        } catch (error) {
          if (attempt >= DELETE_ATTEMPTS || !isTransactionConflict(error)) throw error;
        }
      }
      for (const owner of dataOwners) await owner.afterDelete?.();
      // Kept without the user's id: only the fact that a deletion happened outlives the user.
      await audit.record({ userId: null, action: 'user.delete', objectType: 'user' });
      await db.checkpoint();
    },
  };
}
