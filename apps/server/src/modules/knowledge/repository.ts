import { sql, type Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { Passage } from './passages.ts';

/** A knowledge file as other modules see it: an agent version's file list, the agent export. */
export interface KnowledgeFileRef {
  /** A server UUID. */
  id: string;
  name: string;
  media_type: string;
  size_bytes: number;
  sha256: string;
}

/** A passage found for a question, with what cites it: the file and the passage's number in it. */
export interface KnowledgeHit {
  file_id: string;
  file_name: string;
  /** The passage's number in its file, from 1. */
  passage: number;
  /** The PDF page it comes from; null for other kinds. */
  page: number | null;
  text: string;
}

/** A file's row as the API lists it. */
export type FileRow = KnowledgeFileRef & {
  pages: number | null;
  passage_count: number;
  embedding_model: string | null;
  created_at: string;
};

export const FILE_COLUMNS = [
  'id',
  'name',
  'media_type',
  'size_bytes',
  'sha256',
  'pages',
  'passage_count',
  'embedding_model',
  'created_at',
] as const;

/** A hit with its rank in one search (lower is better) and its passage id, for merging. */
export type RankedHit = KnowledgeHit & { passage_id: number };

/**
 * The knowledge tables (knowledge_files, knowledge_file_contents, knowledge_passages). Every query
 * names the owner and the agent; the search runs on the dialect's own full-text index.
 */
export function createKnowledgeRepository(db: Db) {
  const k = db.kysely;
  /** The agent's attached files: a deleted one stays for the versions that list it (history.ts). */
  const ofAgent = (executor: Kysely<Database>, userId: number, agentId: number) =>
    executor
      .selectFrom('knowledge_files')
      .where('user_id', '=', userId)
      .where('agent_id', '=', agentId)
      .where('detached_at', 'is', null);

  return {
    async list(userId: number, agentId: number, executor: Kysely<Database> = k): Promise<FileRow[]> {
      return ofAgent(executor, userId, agentId)
        .select(FILE_COLUMNS)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    /** Whether the agent has any file attached: one row read at most. */
    async hasAny(userId: number, agentId: number): Promise<boolean> {
      return (await ofAgent(k, userId, agentId).select('id').limit(1).executeTakeFirst()) !== undefined;
    },

    async count(userId: number, agentId: number): Promise<number> {
      const row = await ofAgent(k, userId, agentId)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** One attached file with where its bytes are. */
    async find(userId: number, agentId: number, fileId: string, executor: Kysely<Database> = k) {
      return ofAgent(executor, userId, agentId)
        .select([...FILE_COLUMNS, 'object_key'])
        .where('id', '=', fileId)
        .executeTakeFirst();
    },

    /** One of the agent's files, attached or not, unless erased (in the caller's transaction). */
    async findKept(trx: Kysely<Database>, userId: number, agentId: number, fileId: string) {
      return trx
        .selectFrom('knowledge_files')
        .select(['id', 'object_key', 'detached_at'])
        .where('user_id', '=', userId)
        .where('agent_id', '=', agentId)
        .where('id', '=', fileId)
        .where('erased_at', 'is', null)
        .executeTakeFirst();
    },

    /** The file and its passages, in the caller's transaction (its bytes: file-bytes.ts). */
    async insert(
      trx: Kysely<Database>,
      file: Omit<FileRow, 'passage_count'> & { user_id: number; agent_id: number; object_key: string | null },
      passages: (Passage & { embedding?: Buffer })[],
    ) {
      await trx
        .insertInto('knowledge_files')
        .values({ ...file, passage_count: passages.length })
        .execute();
      // Batches keep each statement well under both databases' parameter limits.
      for (let i = 0; i < passages.length; i += 200) {
        await trx
          .insertInto('knowledge_passages')
          .values(
            passages.slice(i, i + 200).map((p) => ({
              file_id: file.id,
              user_id: file.user_id,
              agent_id: file.agent_id,
              ordinal: p.ordinal,
              page: p.page,
              text: p.text,
              embedding: p.embedding ?? null,
            })),
          )
          .execute();
      }
    },

    /** The file erased for good: its passages go, its row stays as the versions' record of it. */
    async erase(trx: Kysely<Database>, userId: number, fileId: string) {
      await trx
        .deleteFrom('knowledge_passages')
        .where('user_id', '=', userId)
        .where('file_id', '=', fileId)
        .execute();
      const now = new Date().toISOString();
      await trx
        .updateTable('knowledge_files')
        .set({ erased_at: now, object_key: null, passage_count: 0, embedding_model: null })
        .where('user_id', '=', userId)
        .where('id', '=', fileId)
        .execute();
    },

    /** The best full-text matches for any of `terms` (letters and digits only), best first. */
    async searchText(userId: number, agentId: number, terms: string[], limit: number): Promise<RankedHit[]> {
      if (terms.length === 0) return [];
      const query =
        db.dialect === 'sqlite'
          ? sql<RankedHit>`
              select p.id as passage_id, p.file_id, f.name as file_name, p.ordinal as passage, p.page, p.text
              from knowledge_passages_fts
              join knowledge_passages p on p.id = knowledge_passages_fts.rowid
              join knowledge_files f on f.id = p.file_id and f.detached_at is null
              where knowledge_passages_fts match ${terms.map((t) => `"${t}"`).join(' OR ')}
                and p.user_id = ${userId} and p.agent_id = ${agentId}
              order by bm25(knowledge_passages_fts), p.id
              limit ${limit}`
          : sql<RankedHit>`
              select p.id as passage_id, p.file_id, f.name as file_name, p.ordinal as passage, p.page, p.text
              from knowledge_passages p
              join knowledge_files f on f.id = p.file_id and f.detached_at is null,
                to_tsquery('english', ${terms.join(' | ')}) q
              where p.search @@ q and p.user_id = ${userId} and p.agent_id = ${agentId}
              order by ts_rank_cd(p.search, q) desc, p.id
              limit ${limit}`;
      return (await query.execute(k)).rows;
    },

    /** Every passage of the agent's files that has an embedding (exact cosine search in process). */
    async embedded(userId: number, agentId: number) {
      return k
        .selectFrom('knowledge_passages')
        .innerJoin('knowledge_files', 'knowledge_files.id', 'knowledge_passages.file_id')
        .select([
          'knowledge_passages.id as passage_id',
          'knowledge_passages.file_id',
          'knowledge_files.name as file_name',
          'knowledge_passages.ordinal as passage',
          'knowledge_passages.page',
          'knowledge_passages.text',
          'knowledge_passages.embedding',
        ])
        .where('knowledge_passages.user_id', '=', userId)
        .where('knowledge_passages.agent_id', '=', agentId)
        .where('knowledge_passages.embedding', 'is not', null)
        .where('knowledge_files.detached_at', 'is', null)
        .execute();
    },

    /**
     * SQLite's FTS5 keeps deleted rows' words in its segments until they are merged: after a
     * deletion of someone's data, merge them away so no word of it stays readable (P1).
     */
    async compactIndex(executor: Kysely<Database> = k) {
      if (db.dialect === 'sqlite')
        await sql`insert into knowledge_passages_fts(knowledge_passages_fts) values ('optimize')`.execute(
          executor,
        );
    },
  };
}

export type KnowledgeRepository = ReturnType<typeof createKnowledgeRepository>;
