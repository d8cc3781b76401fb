import type { KnowledgeFile } from '@cadre/contract';
import type { KnowledgeConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { AuditLog, AuthUser } from '../../kernel.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { RecordAnswer } from '../../http/idempotency.ts';
import { cosine, vectorOf, type Embedder } from './embeddings.ts';
import { fileBytes } from './file-bytes.ts';
import { attachAt, detachAt } from './history.ts';
import type { ObjectStore } from './object-store.ts';
import { prepareFile, type IncomingFile, type PreparedFile } from './prepare.ts';
import type { KnowledgeAgents } from './ports.ts';
import { createKnowledgeRepository, type KnowledgeHit, type RankedHit } from './repository.ts';
import { searchTerms } from './search-terms.ts';

export interface KnowledgeDeps {
  db: Db;
  audit: AuditLog;
  agents: KnowledgeAgents;
  settings: KnowledgeConfig;
  /** Present when an embedding model is configured. */
  embedder?: Embedder;
  /** Present when a bucket is configured: the files' bytes go there instead of the database. */
  store?: ObjectStore;
  log: { warn(details: object, message: string): void };
}

/** An upload as the route hands it over: the bytes read within the size cap, and what was claimed. */
export type Upload = IncomingFile;

const DEFAULT_HITS = 5;
/** Reciprocal rank fusion's constant: how much the top ranks of each list outweigh the rest. */
const RRF_K = 60;

/**
 * Knowledge files: upload (prepare.ts, then one transaction with the version it makes), list, read
 * back, delete (kept for the history) or erase, and search an agent's passages by full text and,
 * when configured, by embeddings (the two rankings merged by reciprocal rank fusion).
 */
export function createKnowledgeService({ db, audit, agents, settings, embedder, store, log }: KnowledgeDeps) {
  const repo = createKnowledgeRepository(db);
  const bytes = fileBytes(db, store, log);

  async function requireAgent(userId: number, agentId: number) {
    if (!(await agents.exists(userId, agentId))) throw notFound('Agent not found');
  }

  async function byEmbedding(userId: number, agentId: number, query: string, limit: number) {
    if (!embedder) return [];
    const rows = await repo.embedded(userId, agentId);
    if (rows.length === 0) return [];
    let target: Float32Array;
    try {
      target = await embedder.query(query);
    } catch (error) {
      // The full-text ranking still answers.
      log.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'knowledge query embedding failed',
      );
      return [];
    }
    return rows
      .map((row) => ({ row, score: cosine(target, vectorOf(row.embedding!)) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, limit)
      .map(({ row }) => ({ ...row, embedding: undefined }) as RankedHit);
  }

  /**
   * Prepared files on their way in: their bytes staged in the bucket (when there is one) before
   * any transaction, then written in the caller's transaction and attached from its version, or
   * taken away again if that transaction fails.
   */
  async function stage(files: PreparedFile[]) {
    const keys: (string | null)[] = [];
    try {
      for (const file of files) keys.push(await bytes.stage(file));
    } catch (error) {
      await bytes.discard(keys);
      throw error;
    }
    return {
      files: files.map(({ id, name, media_type, size_bytes, sha256 }) => ({
        id,
        name,
        media_type,
        size_bytes,
        sha256,
      })),
      async attach(trx: Kysely<Database>, userId: number, agentId: number, version: number) {
        // A millisecond apart, so the files list in the order given.
        const now = Date.now();
        for (const [i, file] of files.entries()) {
          const { bytes: content, passages, ...row } = file;
          const owned = { ...row, user_id: userId, agent_id: agentId };
          const created_at = new Date(now + i).toISOString();
          await repo.insert(trx, { ...owned, object_key: keys[i]!, created_at }, passages);
          await bytes.commit(trx, file.id, content, keys[i]!);
          await attachAt(trx, owned, version);
        }
      },
      discard: () => bytes.discard(keys),
    };
  }

  /** What the chat's "Search knowledge" tool asks. */
  const base = {
    /** The agent's attached files, oldest first, read in `executor` (an open transaction or the database). */
    files: (userId: number, agentId: number, executor?: Kysely<Database>) =>
      repo.list(userId, agentId, executor),

    /** Whether the agent has files attached, for every chat turn (which reads none of them). */
    hasFiles: (userId: number, agentId: number) => repo.hasAny(userId, agentId),

    /** The passages of the user's agent's files that best answer `query`, best first. */
    async search(
      userId: number,
      agentId: number,
      query: string,
      limit = DEFAULT_HITS,
    ): Promise<KnowledgeHit[]> {
      const [text, semantic] = await Promise.all([
        repo.searchText(userId, agentId, searchTerms(query), limit * 2),
        byEmbedding(userId, agentId, query, limit * 2),
      ]);
      const fused = new Map<number, { hit: RankedHit; score: number; inText: boolean }>();
      for (const list of [text, semantic])
        list.forEach((hit, rank) => {
          const entry = fused.get(hit.passage_id) ?? { hit, score: 0, inText: list === text };
          entry.score += 1 / (RRF_K + rank + 1);
          fused.set(hit.passage_id, entry);
        });
      // Equal scores: a passage that holds the question's words goes first.
      return [...fused.values()]
        .sort(
          (a, b) =>
            b.score - a.score || Number(b.inText) - Number(a.inText) || a.hit.passage_id - b.hit.passage_id,
        )
        .slice(0, limit)
        .map(({ hit }) => ({
          file_id: hit.file_id,
          file_name: hit.file_name,
          passage: hit.passage,
          page: hit.page,
          text: hit.text,
        }));
    },
  };

  return {
    ...base,
    repo,
    bytes,
    settings,
    prepare: (file: IncomingFile) => prepareFile(file, settings, embedder, log),
    stage,

    async list(userId: number, agentId: number): Promise<KnowledgeFile[]> {
      await requireAgent(userId, agentId);
      return repo.list(userId, agentId);
    },

    async content(userId: number, agentId: number, fileId: string) {
      const found = await repo.find(userId, agentId, fileId);
      const content = found && (await bytes.read(found.id, found.object_key));
      if (!found || !content) throw notFound('File not found');
      const { object_key: _key, ...file } = found;
      return { file, bytes: content };
    },

    /**
     * One file, indexed and attached as a version of the agent; the uploads of one `batch` (the
     * editor's pick of several files) share one version while it is the newest.
     */
    async upload(
      user: AuthUser,
      agentId: number,
      upload: Upload,
      batch?: string,
      record?: RecordAnswer<KnowledgeFile>,
    ): Promise<KnowledgeFile> {
      await requireAgent(user.id, agentId);
      if ((await repo.count(user.id, agentId)) >= settings.maxFilesPerAgent)
        throw new HttpError(
          'conflict',
          `This agent already has ${settings.maxFilesPerAgent} files, the most allowed (KNOWLEDGE_MAX_FILES_PER_AGENT); delete one first.`,
        );
      const file = await prepareFile(upload, settings, embedder, log);
      const staged = await stage([file]);
      try {
        return await db.kysely.transaction().execute(async (trx) => {
          const version = await agents.recordFilesChange(user, agentId, trx, batch);
          await staged.attach(trx, user.id, agentId, version);
          await audit.record(
            {
              userId: user.id,
              action: 'knowledge.upload',
              objectType: 'agent',
              objectId: agentId,
              detail: {
                file_id: file.id,
                media_type: file.media_type,
                size_bytes: file.size_bytes,
                passages: file.passages.length,
                ...(batch ? { batch } : {}),
              },
            },
            trx,
          );
          // Read in the transaction, so an Idempotency-Key's answer commits with the file.
          const listed = await repo.find(user.id, agentId, file.id, trx);
          if (!listed) throw notFound('File not found');
          const { object_key: _key, ...row } = listed;
          await record?.(trx, row);
          return row;
        });
      } catch (error) {
        await staged.discard();
        throw error;
      }
    },

    /**
     * Deletes a file from the agent as a new version. It stays in the agent's history (restoring a
     * version that lists it brings it back) unless `erase`: then its bytes and passages go for
     * good, and the history keeps only its name, size and SHA-256. A deleted file can be erased.
     */
    async delete(user: AuthUser, agentId: number, fileId: string, erase = false) {
      await requireAgent(user.id, agentId);
      await db.kysely.transaction().execute(async (trx) => {
        const file = await repo.findKept(trx, user.id, agentId, fileId);
        if (!file || (file.detached_at !== null && !erase)) throw notFound('File not found');
        if (file.detached_at === null) {
          const version = await agents.recordFilesChange(user, agentId, trx);
          await detachAt(trx, user.id, fileId, version);
        }
        if (erase) {
          await repo.erase(trx, user.id, fileId);
          await bytes.erase(trx, fileId, file.object_key);
        }
        await audit.record(
          {
            userId: user.id,
            action: erase ? 'knowledge.erase' : 'knowledge.delete',
            objectType: 'agent',
            objectId: agentId,
            detail: { file_id: fileId },
          },
          trx,
        );
      });
      if (erase) {
        await repo.compactIndex();
        await bytes.sweep();
      }
    },
  };
}

export type KnowledgeService = ReturnType<typeof createKnowledgeService>;
