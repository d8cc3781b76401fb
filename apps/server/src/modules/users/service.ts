import type { UserExport, UserProfile } from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import { isTransactionConflict } from '../../db/unavailable.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { LAST_ADMIN_DETAIL } from '../../security/policy.ts';
import { createPeopleRepository } from './people-repository.ts';
import { identityHasher, issuedAfter } from './deleted-identities.ts';
import type { ResolvedUser } from '../../http/auth-ports.ts';
import type { AuditLog, AuthUser, UserDataOwner, UserExportPart, UserIdentity } from '../../kernel.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { defaultRoleOf } from './default-role.ts';
import { mergeParts } from './export-parts.ts';
import { createGroupsRepository, syncClaimedGroups } from './groups-repository.ts';
import { createUsersRepository } from './repository.ts';
import { claimedGroups, signInRole, type SignInRules } from './sign-in-claims.ts';

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
  /** Whether an admin disabled the account of this identity. */
  isDisabled(identity: Pick<UserIdentity, 'issuer' | 'subject'>): Promise<boolean>;
  /**
   * Run when an admin disables an account, after it is marked: each ends something of theirs that
   * lives on (chat sessions, runs, the provider's sessions). A hook that throws fails the request;
   * the account stays disabled, and disabling it again runs them again.
   */
  readonly onDisable: ((user: AuthUser) => Promise<void>)[];
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
  /** The profile of the user with this id (`GET /users/me`). */
  profile(id: number): Promise<UserProfile | undefined>;
  /** The user with this id, or undefined once deleted or while disabled (an API key's owner). */
  byId(id: number): Promise<AuthUser | undefined>;
  /**
   * Sign-in: stores the claims' name, email and picture, applies ADMIN_EMAILS and the configured
   * role and groups claims of the access token (`tokenClaims`), and returns the profile.
   */
  checkUser(
    user: AuthUser,
    claims: Omit<UserIdentity, 'issuer' | 'subject'>,
    tokenClaims?: Record<string, unknown>,
  ): Promise<UserProfile>;
  exportData(user: AuthUser): Promise<UserExport>;
  /**
   * Deletes the user and everything stored about them; `agentsTo` (an admin's deletion) receives
   * their agents instead, in the same transaction.
   */
  deleteData(user: AuthUser, options?: { agentsTo?: AuthUser }): Promise<void>;
  /**
   * `DELETE /users/me`: as deleteData, but the last active admin of a workspace with other accounts
   * is refused (409), so it never lies without an admin.
   */
  deleteOwnAccount(user: AuthUser): Promise<void>;
}

/** How many times a deletion that lost to a concurrent transaction is run (see deleteData). */
const DELETE_ATTEMPTS = 3;

/** A user's activity is written at most this often (`last_active_at`, for the People list). */
const ACTIVITY_WRITE_INTERVAL_MS = 60 * 60 * 1000;

export interface UsersOptions {
  /** The vault key (SECRETS_KEY or the data folder's key file); {@link identityHasher}'s key comes from it. */
  secret: Buffer;
  /** ADMIN_EMAILS and the issuer's role and groups claims. */
  signIn?: SignInRules;
  /** Issuers of users nobody signs in as (demo visitors): they never count as accounts. */
  hiddenIssuers?: readonly string[];
}

export function createUsersService(
  db: Db,
  audit: AuditLog,
  { secret, signIn = { adminEmails: [] }, hiddenIssuers = [] }: UsersOptions,
): UsersService {
  const repo = createUsersRepository(db);
  const groups = createGroupsRepository(db);
  const people = createPeopleRepository(db, hiddenIssuers);
  const hashOf = identityHasher(secret);
  const defaultRole = () => defaultRoleOf(db);
  // With ADMIN_EMAILS the operator names the admins: whoever signs up first is not made one.
  const firstIsAdmin = signIn.adminEmails.length === 0;
  const beforeUserDelete: BeforeUserDelete[] = [];
  const onDisable: UsersService['onDisable'] = [];
  const dataOwners: UserDataOwner[] = [];

  type Row = NonNullable<Awaited<ReturnType<typeof repo.findByIdentity>>>;
  const resolved = (identity: UserIdentity, found: Row): ResolvedUser => {
    const {
      admitted_at,
      previous_deletion_at: _previous,
      disabled_at,
      last_active_at: _active,
      ...row
    } = found;
    return {
      ...row,
      issuer: identity.issuer,
      subject: identity.subject,
      admitted: admitted_at !== null,
      disabled: disabled_at !== null,
    };
  };

  const resolve: UsersService['resolve'] = async (identity) =>
    resolved(
      identity,
      (await repo.findByIdentity(identity.issuer, identity.subject)) ??
        (await repo.insertIfMissing(identity, await defaultRole(), { firstIsAdmin })),
    );

  /** Records the request as the user's activity, unless it was recorded within the hour. */
  const touch = async (row: Row) => {
    const at = Date.now();
    if (row.last_active_at === null || Date.parse(row.last_active_at) <= at - ACTIVITY_WRITE_INTERVAL_MS) {
      await repo.touch(row.id, new Date(at).toISOString());
    }
  };

  return {
    beforeUserDelete,
    dataOwners,
    onDisable,

    async isDisabled(identity) {
      const found = await repo.findByIdentity(identity.issuer, identity.subject);
      return found?.disabled_at != null;
    },

    resolve,

    async forToken(identity, issuedAt) {
      // A user made again after a deletion refuses the tokens issued before it.
      const accepted = async (row: Row) => {
        if (row.previous_deletion_at !== null && !issuedAfter(row.previous_deletion_at, issuedAt)) return;
        await touch(row);
        return resolved(identity, row);
      };
      const found = await repo.findByIdentity(identity.issuer, identity.subject);
      if (found) return accepted(found);
      // Only a user with no row may have been deleted: the row and the record of its deletion go in
      // one transaction, so once the row is gone the record is there to read.
      const deletedAt = await repo.deletedAt(hashOf(identity));
      if (deletedAt !== undefined && !issuedAfter(deletedAt, issuedAt)) return undefined;
      return accepted(
        await repo.insertIfMissing(identity, await defaultRole(), {
          firstIsAdmin,
          previousDeletionAt: deletedAt ?? null,
        }),
      );
    },

    async find(identity) {
      const found = await repo.findByIdentity(identity.issuer, identity.subject);
      if (!found) return undefined;
      const { admitted: _admitted, disabled: _disabled, ...user } = resolved(identity, found);
      return user;
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

    byId: (id) => repo.getActiveProfile(id),

    profile: (id) => repo.getProfile(id),

    async checkUser(user, claims, tokenClaims = {}) {
      const email = claims.email ?? user.email;
      const role = signInRole(signIn, user.role, email, tokenClaims);
      await repo.updateProfile(
        user.id,
        { email, name: claims.name ?? user.name, picture: claims.picture ?? user.picture, role },
        async (trx) => {
          await audit.record(
            { userId: user.id, action: 'user.sign_in', objectType: 'user', objectId: user.id },
            trx,
          );
          if (role !== user.role) {
            await audit.record(
              {
                userId: user.id,
                action: 'user.role_change',
                objectType: 'user',
                objectId: user.id,
                detail: { from: user.role, to: role, by: 'sign_in' },
              },
              trx,
            );
          }
        },
      );
      await syncClaimedGroups({ groups, audit }, user.id, claimedGroups(signIn, tokenClaims));
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
    async deleteOwnAccount(user) {
      if (
        user.role === 'admin' &&
        (await people.othersExist(user.id)) &&
        (await db.kysely.transaction().execute((trx) => people.otherActiveAdmins(user.id, trx))) === 0
      ) {
        throw new HttpError('conflict', LAST_ADMIN_DETAIL);
      }
      await this.deleteData(user);
    },

    async deleteData(user, { agentsTo } = {}) {
      for (const hook of beforeUserDelete) await hook(user);
      // A run of the user's still ending on another instance writes its last save meanwhile; on
      // PostgreSQL the two transactions can deadlock, and the loser is rolled back whole. The
      // deletion then simply runs again (the run has ended by then), instead of answering 500.
      for (let attempt = 1; ; attempt += 1) {
        try {
          await db.kysely.transaction().execute(async (trx) => {
            if (agentsTo) for (const owner of dataOwners) await owner.transferAgents?.(user, agentsTo, trx);
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
