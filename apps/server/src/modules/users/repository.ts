import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { UserIdentity } from '../../deps.ts';

const USER_COLUMNS = [
  'id',
  'issuer',
  'subject',
  'email',
  'name',
  'picture',
  'created_at',
  'updated_at',
] as const;

export function createUsersRepository(db: Db) {
  const k = db.kysely;
  return {
    /** The per-request lookup: one query on the (issuer, subject) unique index. */
    findByIdentity(issuer: string, subject: string) {
      return k
        .selectFrom('users')
        .select(['id', 'email', 'name', 'picture'])
        .where('issuer', '=', issuer)
        .where('subject', '=', subject)
        .executeTakeFirst();
    },

    /** Inserts the user unless another request created it first; either way returns the row. */
    async insertIfMissing(identity: UserIdentity) {
      const now = new Date().toISOString();
      await k
        .insertInto('users')
        .values({
          issuer: identity.issuer,
          subject: identity.subject,
          email: identity.email ?? null,
          name: identity.name ?? null,
          picture: identity.picture ?? null,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
        .execute();
      return k
        .selectFrom('users')
        .select(['id', 'email', 'name', 'picture'])
        .where('issuer', '=', identity.issuer)
        .where('subject', '=', identity.subject)
        .executeTakeFirstOrThrow();
    },

    /** Inserts a user in the caller's transaction and returns its id. */
    async insert(identity: UserIdentity, trx: Kysely<Database>): Promise<number> {
      const now = new Date().toISOString();
      const row = await trx
        .insertInto('users')
        .values({
          issuer: identity.issuer,
          subject: identity.subject,
          email: identity.email ?? null,
          name: identity.name ?? null,
          picture: identity.picture ?? null,
          created_at: now,
          updated_at: now,
        })
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

    getProfile(id: number) {
      return k.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
    },

    /** `record` runs in the update's transaction (the audit record), so both commit or neither does. */
    async updateProfile(
      id: number,
      fields: { email: string | null; name: string | null; picture: string | null },
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

    async exportRows(userId: number) {
      const [agents, tools, versions, services, connections, threads, messages, triggers, audit] =
        await Promise.all([
          k
            .selectFrom('agents')
            .select(['id', 'name', 'description', 'guidelines', 'starters', 'created_at', 'updated_at'])
            .where('user_id', '=', userId)
            .orderBy('id')
            .execute(),
          k
            .selectFrom('agent_tools')
            .innerJoin('agents', 'agents.id', 'agent_tools.agent_id')
            .select(['agent_tools.agent_id', 'agent_tools.action_id'])
            .where('agents.user_id', '=', userId)
            .orderBy('agent_tools.agent_id')
            .orderBy('agent_tools.position')
            .execute(),
          k
            .selectFrom('agent_versions')
            .select([
              'agent_id',
              'number',
              'reason',
              'restored_from',
              'saved_by',
              'author',
              'snapshot',
              'created_at',
            ])
            .where('user_id', '=', userId)
            .orderBy('agent_id')
            .orderBy('number')
            .execute(),
          k
            .selectFrom('services')
            .select(['id', 'provider', 'name', 'description', 'created_at'])
            .where('owner_user_id', '=', userId)
            .orderBy('id')
            .execute(),
          // Never the credentials column: the export is shown and downloaded in the browser.
          k
            .selectFrom('connections')
            .select(['id', 'service_id', 'status', 'created_at', 'updated_at'])
            .where('user_id', '=', userId)
            .orderBy('id')
            .execute(),
          k
            .selectFrom('threads')
            .select(['id', 'agent_id', 'name', 'origin', 'created_at', 'updated_at'])
            .where('user_id', '=', userId)
            .orderBy('created_at')
            .execute(),
          k
            .selectFrom('messages')
            .innerJoin('threads', 'threads.id', 'messages.thread_id')
            .leftJoin('message_feedback', 'message_feedback.message_id', 'messages.id')
            .select([
              'messages.id',
              'messages.thread_id',
              'messages.role',
              'messages.parts',
              'messages.status',
              'messages.created_at',
              'message_feedback.rating',
              'message_feedback.comment',
              'message_feedback.updated_at as rated_at',
            ])
            .where('threads.user_id', '=', userId)
            .orderBy('messages.created_at')
            .execute(),
          k
            .selectFrom('trigger_events')
            .select(['id', 'agent_id', 'trigger_id', 'status', 'created_at'])
            .where('user_id', '=', userId)
            .orderBy('id')
            .execute(),
          k
            .selectFrom('audit_events')
            .select(['id', 'action', 'object_type', 'object_id', 'detail', 'created_at'])
            .where('user_id', '=', userId)
            .orderBy('id')
            .execute(),
        ]);
      return { agents, tools, versions, services, connections, threads, messages, triggers, audit };
    },

    /**
     * Deletes every row the user owns, children first, in one transaction. The foreign keys
     * cascade as well; deleting explicitly keeps this correct without relying on that.
     */
    async deleteAll(userId: number) {
      await k.transaction().execute(async (trx: Kysely<Database>) => {
        const threadIds = trx.selectFrom('threads').select('id').where('user_id', '=', userId);
        const agentIds = trx.selectFrom('agents').select('id').where('user_id', '=', userId);
        const ownServiceIds = trx.selectFrom('services').select('id').where('owner_user_id', '=', userId);
        const ownActionIds = trx.selectFrom('actions').select('id').where('service_id', 'in', ownServiceIds);
        await trx.deleteFrom('approvals').where('user_id', '=', userId).execute();
        await trx.deleteFrom('approvals').where('thread_id', 'in', threadIds).execute();
        await trx.deleteFrom('messages').where('thread_id', 'in', threadIds).execute();
        await trx.deleteFrom('threads').where('user_id', '=', userId).execute();
        await trx.deleteFrom('trigger_events').where('user_id', '=', userId).execute();
        await trx.deleteFrom('agent_versions').where('user_id', '=', userId).execute();
        await trx.deleteFrom('agent_tools').where('agent_id', 'in', agentIds).execute();
        await trx.deleteFrom('agent_tools').where('action_id', 'in', ownActionIds).execute();
        await trx.deleteFrom('agents').where('user_id', '=', userId).execute();
        await trx.deleteFrom('oauth_states').where('user_id', '=', userId).execute();
        await trx.deleteFrom('connections').where('user_id', '=', userId).execute();
        await trx.deleteFrom('connections').where('service_id', 'in', ownServiceIds).execute();
        await trx.deleteFrom('actions').where('service_id', 'in', ownServiceIds).execute();
        await trx.deleteFrom('services').where('owner_user_id', '=', userId).execute();
        await trx.deleteFrom('audit_events').where('user_id', '=', userId).execute();
        await trx.deleteFrom('users').where('id', '=', userId).execute();
      });
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
