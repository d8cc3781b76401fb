import type { Kysely } from 'kysely';
import {
  agentSnapshotSchema,
  type AgentSnapshot,
  type AgentSnapshotFile,
  type AgentVersion,
  AGENT_VERSION_REASONS,
} from '@cadre/contract';
import type { Database } from '../../db/schema.ts';
import type { AuthUser } from '../../deps.ts';
import { AGENT_FIELD_COLUMNS, agentFieldsOf, attachedTools } from './stored-fields.ts';

/** Who saves: the owner, named in the version they make. */
export type Saver = Pick<AuthUser, 'id' | 'name' | 'email'>;

export const authorOf = (user: Saver) => user.name ?? user.email ?? null;

export type VersionReason = (typeof AGENT_VERSION_REASONS)[number];

/** Why a version is being written, and by whom. */
export interface VersionNote {
  reason: Exclude<VersionReason, 'baseline'>;
  savedBy: number;
  author: string | null;
  restoredFrom?: number;
}

type VersionRow = Database['agent_versions'];

/** The agent's knowledge files, read in the save's transaction (the knowledge module's, wired in app.ts). */
export type SnapshotFiles = (
  executor: Kysely<Database>,
  userId: number,
  agentId: number,
) => Promise<AgentSnapshotFile[]>;

/** Stored snapshots are read leniently: a field a later release adds must not break the history. */
const toVersion = (row: Omit<VersionRow, 'agent_id' | 'user_id'>): AgentVersion => ({
  number: row.number,
  reason: (AGENT_VERSION_REASONS as readonly string[]).includes(row.reason)
    ? (row.reason as VersionReason)
    : 'update',
  restored_from: row.restored_from,
  saved_by: row.saved_by,
  author: row.author,
  created_at: row.created_at,
  snapshot: agentSnapshotSchema.parse(JSON.parse(row.snapshot)),
});

/**
 * The `agent_versions` table: every query names the owner, like the agents table's. Writes take
 * the caller's open transaction, so a version commits with the save it records.
 */
export function versionQueries(k: Kysely<Database>, filesOf: SnapshotFiles = async () => []) {
  /** The user's agent as it stands, in `executor` (the database or an open transaction). */
  async function snapshot(
    executor: Kysely<Database>,
    userId: number,
    agentId: number,
  ): Promise<AgentSnapshot | undefined> {
    const agent = await executor
      .selectFrom('agents')
      .select(AGENT_FIELD_COLUMNS)
      .where('user_id', '=', userId)
      .where('id', '=', agentId)
      .executeTakeFirst();
    if (!agent) return undefined;
    const tools = await attachedTools(executor, agentId)
      .select([
        'tool.action_id as id',
        'tool.action_name as name',
        'tool.display_name',
        'tool.service_name as app_name',
        'tool.provider',
        'tool.provider_key as service_key',
      ])
      .execute();
    return { ...agentFieldsOf(agent), tools, files: await filesOf(executor, userId, agentId) };
  }

  const latestNumber = async (trx: Kysely<Database>, userId: number, agentId: number) => {
    const row = await trx
      .selectFrom('agent_versions')
      .select((eb) => eb.fn.max('number').as('latest'))
      .where('user_id', '=', userId)
      .where('agent_id', '=', agentId)
      .executeTakeFirst();
    return Number(row?.latest ?? 0);
  };

  const insert = (
    trx: Kysely<Database>,
    userId: number,
    agentId: number,
    number: number,
    values: Pick<VersionRow, 'reason' | 'restored_from' | 'saved_by' | 'author'>,
    state: AgentSnapshot,
  ) =>
    trx
      .insertInto('agent_versions')
      .values({
        agent_id: agentId,
        user_id: userId,
        number,
        ...values,
        snapshot: JSON.stringify(state),
        created_at: new Date().toISOString(),
      })
      .execute();

  return {
    snapshot,

    /**
     * The state before a save, for an agent saved before versions were recorded (or set up by the
     * server): read before the write, stored as version 1 by `record` if there is still no version.
     */
    async stateBeforeFirstVersion(trx: Kysely<Database>, userId: number, agentId: number) {
      if ((await latestNumber(trx, userId, agentId)) > 0) return undefined;
      return snapshot(trx, userId, agentId);
    },

    /**
     * Records the agent as it now stands in the save's transaction. The caller has already written
     * the agent's row, which holds a row lock on PostgreSQL, so concurrent saves number in turn.
     */
    async record(
      trx: Kysely<Database>,
      userId: number,
      agentId: number,
      note: VersionNote,
      before?: AgentSnapshot,
    ): Promise<number> {
      let latest = await latestNumber(trx, userId, agentId);
      if (latest === 0 && before) {
        latest = 1;
        await insert(
          trx,
          userId,
          agentId,
          latest,
          { reason: 'baseline', restored_from: null, saved_by: null, author: null },
          before,
        );
      }
      const state = await snapshot(trx, userId, agentId);
      if (!state) throw new Error('A saved agent could not be read back in its transaction');
      await insert(
        trx,
        userId,
        agentId,
        latest + 1,
        {
          reason: note.reason,
          restored_from: note.restoredFrom ?? null,
          saved_by: note.savedBy,
          author: note.author,
        },
        state,
      );
      return latest + 1;
    },

    /** The user's versions of an agent, newest first. */
    async list(userId: number, agentId: number): Promise<AgentVersion[]> {
      const rows = await k
        .selectFrom('agent_versions')
        .select(['number', 'reason', 'restored_from', 'saved_by', 'author', 'snapshot', 'created_at'])
        .where('user_id', '=', userId)
        .where('agent_id', '=', agentId)
        .orderBy('number', 'desc')
        .execute();
      return rows.map(toVersion);
    },

    async find(userId: number, agentId: number, number: number): Promise<AgentVersion | undefined> {
      const row = await k
        .selectFrom('agent_versions')
        .select(['number', 'reason', 'restored_from', 'saved_by', 'author', 'snapshot', 'created_at'])
        .where((eb) => eb.and({ user_id: userId, agent_id: agentId, number }))
        .executeTakeFirst();
      return row && toVersion(row);
    },
  };
}

export type VersionQueries = ReturnType<typeof versionQueries>;
