import type { Kysely, Selectable } from 'kysely';
import {
  agentSnapshotSchema,
  type AgentSnapshot,
  type AgentSnapshotFile,
  type AgentVersion,
  AGENT_VERSION_REASONS,
} from '@cadre/contract';
import type { Database } from '../../db/schema.ts';
import type { AuthUser } from '../../kernel.ts';
import type { KnowledgeHistory } from './ports.ts';
import { AGENT_FIELD_COLUMNS, agentFieldsOf, attachedTools } from './stored-fields.ts';
import { ownedAgent } from './owned-agent.ts';

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
  /** For `files`: the upload batch; its next upload amends the version while it is the newest. */
  batch?: string;
}

type VersionRow = Database['agent_versions'];

/** Runs inside the write's transaction (the audit record), so both commit or neither does. */
export type InTransaction<T> = (trx: Kysely<Database>, value: T) => Promise<void>;

/** Runs inside a save's transaction once its version is recorded: the agent's id and the version. */
export type AfterSave = (trx: Kysely<Database>, agentId: number, version: number) => Promise<void>;

/** A version's snapshot as stored: the files it lists are the knowledge module's (KnowledgeHistory). */
export type StoredSnapshot = Omit<AgentSnapshot, 'files'>;

/** The files each version lists (the knowledge module's history; none without it). */
const noFiles: KnowledgeHistory = {
  filesByVersion: async () => () => [],
  restore: async (_trx, _user, _agent, files) => files,
};

type StoredVersion = Omit<Selectable<VersionRow>, 'agent_id' | 'user_id' | 'batch'>;

/**
 * Stored snapshots are read leniently: a field a later release adds must not break the history.
 * A snapshot stored with its files (before files had a history of their own) keeps that list.
 */
const toVersion = (row: StoredVersion, filesAt: (version: number) => AgentSnapshotFile[]): AgentVersion => {
  const stored = JSON.parse(row.snapshot) as { files?: unknown };
  return {
    number: row.number,
    reason: (AGENT_VERSION_REASONS as readonly string[]).includes(row.reason)
      ? (row.reason as VersionReason)
      : 'update',
    restored_from: row.restored_from,
    saved_by: row.saved_by,
    author: row.author,
    created_at: row.created_at,
    snapshot: agentSnapshotSchema.parse({ files: filesAt(row.number), ...stored }),
  };
};

/** A version's columns as the API and the user export read them. */
export const VERSION_COLUMNS = [
  'number',
  'reason',
  'restored_from',
  'saved_by',
  'author',
  'snapshot',
  'created_at',
] as const;

/**
 * The `agent_versions` table: every query names the owner, like the agents table's. Writes take
 * the caller's open transaction, so a version commits with the save it records. The snapshot
 * stores the agent's fields and tools; the files a version lists come from the knowledge module.
 */
export function versionQueries(k: Kysely<Database>, history: KnowledgeHistory = noFiles) {
  /** The user's agent's fields and tools as they stand, in `executor` (the database or a transaction). */
  async function snapshot(
    executor: Kysely<Database>,
    userId: number,
    agentId: number,
  ): Promise<StoredSnapshot | undefined> {
    const agent = await ownedAgent(executor, userId, agentId).select(AGENT_FIELD_COLUMNS).executeTakeFirst();
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
    return { ...agentFieldsOf(agent), tools };
  }

  const latest = (trx: Kysely<Database>, userId: number, agentId: number) =>
    trx
      .selectFrom('agent_versions')
      .select(['number', 'reason', 'saved_by', 'batch'])
      .where('user_id', '=', userId)
      .where('agent_id', '=', agentId)
      .orderBy('number', 'desc')
      .limit(1)
      .executeTakeFirst();

  const insert = (
    trx: Kysely<Database>,
    userId: number,
    agentId: number,
    number: number,
    values: Pick<VersionRow, 'reason' | 'restored_from' | 'saved_by' | 'author'> & { batch?: string },
    state: StoredSnapshot,
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

  /** The versions' rows with the files each lists, read in `executor`. */
  const withFiles = async (
    executor: Kysely<Database>,
    userId: number,
    agentId: number,
    rows: StoredVersion[],
  ) => {
    const filesAt = await history.filesByVersion(executor, userId, agentId);
    return rows.map((row) => toVersion(row, filesAt));
  };

  return {
    snapshot,

    /**
     * The state before a save, for an agent saved before versions were recorded (or set up by the
     * server): read before the write, stored as version 1 by `record` if there is still no version.
     */
    async stateBeforeFirstVersion(trx: Kysely<Database>, userId: number, agentId: number) {
      if (await latest(trx, userId, agentId)) return undefined;
      return snapshot(trx, userId, agentId);
    },

    /**
     * Records the agent as it now stands in the save's transaction, and answers the version's
     * number. The caller has already written the agent's row, which holds a row lock on
     * PostgreSQL, so concurrent saves number in turn. The next upload of a batch whose version is
     * still the newest is that version again: a pick of several files is one save.
     */
    async record(
      trx: Kysely<Database>,
      userId: number,
      agentId: number,
      note: VersionNote,
      before?: StoredSnapshot,
    ): Promise<number> {
      const newest = await latest(trx, userId, agentId);
      if (
        newest &&
        note.batch !== undefined &&
        newest.reason === 'files' &&
        newest.batch === note.batch &&
        newest.saved_by === note.savedBy
      )
        return newest.number;
      let number = newest?.number ?? 0;
      if (number === 0 && before) {
        number = 1;
        await insert(
          trx,
          userId,
          agentId,
          number,
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
        number + 1,
        {
          reason: note.reason,
          restored_from: note.restoredFrom ?? null,
          saved_by: note.savedBy,
          author: note.author,
          ...(note.batch === undefined ? {} : { batch: note.batch }),
        },
        state,
      );
      return number + 1;
    },

    /** The user's versions of an agent, newest first. */
    async list(userId: number, agentId: number): Promise<AgentVersion[]> {
      const rows = await k
        .selectFrom('agent_versions')
        .select(VERSION_COLUMNS)
        .where('user_id', '=', userId)
        .where('agent_id', '=', agentId)
        .orderBy('number', 'desc')
        .execute();
      return withFiles(k, userId, agentId, rows);
    },

    async find(userId: number, agentId: number, number: number): Promise<AgentVersion | undefined> {
      const row = await k
        .selectFrom('agent_versions')
        .select(VERSION_COLUMNS)
        .where((eb) => eb.and({ user_id: userId, agent_id: agentId, number }))
        .executeTakeFirst();
      return row && (await withFiles(k, userId, agentId, [row]))[0];
    },

    /** In a restore's transaction: the version's files back (KnowledgeHistory.restore). */
    restoreFiles: history.restore,
  };
}

export type VersionQueries = ReturnType<typeof versionQueries>;
