import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Db } from '../../db/database.ts';
import { containsPattern } from '../../db/like.ts';
import type { UserDataOwner } from '../../kernel.ts';
import { resetRateLimitsStartingWith } from '../../security/rate-limit.ts';
import { accountKeyPrefix } from './service.ts';

/** Matches the stored models (Session, Grant, tokens, codes, interactions) of one account. */
const accountPattern = (subject: string) => containsPattern(`"accountId":${JSON.stringify(subject)}`);

const mentionsAccount = (subject: string) =>
  sql<boolean>`payload like ${accountPattern(subject)} escape '\\'`;

/**
 * Ends everything the provider holds for an account but the account itself: its sessions, grants,
 * refresh tokens and codes (account deletion, and an admin disabling the account). A refresh token
 * issued before then gets invalid_grant, and silent sign-in finds no session.
 */
export async function endAccountSessions(trx: Kysely<Database>, subject: string) {
  const rows = await trx
    .selectFrom('idp_payloads')
    .select(['kind', 'id', 'grant_id'])
    .where(mentionsAccount(subject))
    .execute();
  // Tokens name their grant; a grant names its account.
  const grants = [
    ...new Set(rows.flatMap((r) => (r.kind === 'Grant' ? [r.id] : r.grant_id ? [r.grant_id] : []))),
  ];
  await trx
    .deleteFrom('idp_payloads')
    .where((eb) =>
      eb.or([
        mentionsAccount(subject),
        ...(grants.length
          ? [eb('grant_id', 'in', grants), eb.and([eb('kind', '=', 'Grant'), eb('id', 'in', grants)])]
          : []),
      ]),
    )
    .execute();
}

/**
 * The built-in identity provider's share (P1), for users it issued: the account (email, name,
 * password hash), every session, grant, refresh token and code of it, and its sign-in counters.
 * Once they are gone, a refresh token issued before gets invalid_grant and the account cannot sign
 * in; signing up again makes a new account and a new user.
 */
export function identityUserData(db: Db, issuer: string): UserDataOwner {
  return {
    name: 'identity',

    async exportFor(user) {
      if (user.issuer !== issuer) return {};
      const [account, sessions] = await Promise.all([
        db.kysely
          .selectFrom('idp_accounts')
          .select(['email', 'name', 'created_at'])
          .where('subject', '=', user.subject)
          .executeTakeFirst(),
        db.kysely
          .selectFrom('idp_payloads')
          .select(['payload', 'expires_at'])
          .where('kind', '=', 'Session')
          .where(mentionsAccount(user.subject))
          .execute(),
      ]);
      return {
        identity_account: account ?? null,
        sessions: sessions.map((row) => {
          const loginTs = (JSON.parse(row.payload) as { loginTs?: unknown }).loginTs;
          return {
            kind: 'identity' as const,
            agent_id: null,
            created_at: typeof loginTs === 'number' ? new Date(loginTs * 1000).toISOString() : null,
            expires_at: row.expires_at,
          };
        }),
      };
    },

    async deleteFor(user, trx) {
      if (user.issuer !== issuer) return;
      const account = await trx
        .selectFrom('idp_accounts')
        .select('email')
        .where('subject', '=', user.subject)
        .executeTakeFirst();
      await endAccountSessions(trx, user.subject);
      await trx.deleteFrom('idp_accounts').where('subject', '=', user.subject).execute();
      if (account) await resetRateLimitsStartingWith({ kysely: trx }, accountKeyPrefix(account.email));
    },
  };
}
