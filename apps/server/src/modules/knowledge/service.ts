import crypto from 'node:crypto';
import type { KnowledgeFile } from '@cadre/contract';
import type { KnowledgeConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { AgentDirectory, AuditLog, AuthUser, KnowledgeBase, KnowledgeHit } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { cosine, vectorOf, type Embedder } from './embeddings.ts';
import { extractPages } from './extract.ts';
import { knowledgeFilesIn } from './files-in.ts';
import { displayName, MEDIA_TYPES, sniffKind } from './kinds.ts';
import { splitPassages } from './passages.ts';
import { createKnowledgeRepository, type RankedHit } from './repository.ts';
import { searchTerms } from './search-terms.ts';

export interface KnowledgeDeps {
  db: Db;
  audit: AuditLog;
  agents: AgentDirectory;
  settings: KnowledgeConfig;
  /** Present when an embedding model is configured. */
  embedder?: Embedder;
  log: { warn(details: object, message: string): void };
}

/** An upload as the route hands it over: the bytes read within the size cap, and what was claimed. */
export interface Upload {
  filename: string | undefined;
  mimetype: string | undefined;
  bytes: Uint8Array;
}

const DEFAULT_HITS = 5;
/** Reciprocal rank fusion's constant: how much the top ranks of each list outweigh the rest. */
const RRF_K = 60;

/**
 * Knowledge files: upload (sniff, extract within the budget, split, index, record a version),
 * list, read back, delete, and search an agent's passages by full text and, when configured, by
 * embeddings (the two rankings merged by reciprocal rank fusion).
 */
export function createKnowledgeService({ db, audit, agents, settings, embedder, log }: KnowledgeDeps) {
  const repo = createKnowledgeRepository(db);

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

  const base: KnowledgeBase = {
    files: (userId, agentId, executor = db.kysely) => knowledgeFilesIn(executor, userId, agentId),

    async search(userId, agentId, query, limit = DEFAULT_HITS): Promise<KnowledgeHit[]> {
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

    async list(userId: number, agentId: number): Promise<KnowledgeFile[]> {
      await requireAgent(userId, agentId);
      return repo.list(userId, agentId);
    },

    async content(userId: number, agentId: number, fileId: string) {
      const file = await repo.find(userId, agentId, fileId);
      const bytes = file && (await repo.content(userId, agentId, fileId));
      if (!file || !bytes) throw notFound('File not found');
      return { file, bytes };
    },

    async upload(user: AuthUser, agentId: number, upload: Upload): Promise<KnowledgeFile> {
      await requireAgent(user.id, agentId);
      if ((await repo.count(user.id, agentId)) >= settings.maxFilesPerAgent)
        throw new HttpError(
          409,
          `This agent already has ${settings.maxFilesPerAgent} files, the most allowed (KNOWLEDGE_MAX_FILES_PER_AGENT); delete one first.`,
        );
      if (upload.bytes.length === 0) throw new HttpError(422, 'The file is empty.');
      const name = displayName(upload.filename);
      const kind = await sniffKind(upload.bytes, name, upload.mimetype);
      const pages = await extractPages(kind, upload.bytes, settings);
      const passages = splitPassages(kind, pages);
      if (passages.length === 0)
        throw new HttpError(
          422,
          kind === 'pdf'
            ? 'The PDF has no text to search (a scanned PDF holds pictures of text; run it through OCR first).'
            : 'The file has no text to search.',
        );
      let vectors: Buffer[] | undefined;
      if (embedder) {
        try {
          vectors = await embedder.passages(passages.map((p) => p.text));
        } catch (error) {
          // Full-text search still finds the file; the passages stay without vectors.
          log.warn(
            { err: error instanceof Error ? error.message : String(error) },
            'knowledge embeddings failed',
          );
        }
      }
      const file = {
        id: crypto.randomUUID(),
        user_id: user.id,
        agent_id: agentId,
        name,
        media_type: MEDIA_TYPES[kind],
        size_bytes: upload.bytes.length,
        sha256: crypto.createHash('sha256').update(upload.bytes).digest('hex'),
        pages: kind === 'pdf' ? pages.length : null,
        embedding_model: vectors ? embedder!.model : null,
        created_at: new Date().toISOString(),
      };
      await db.kysely.transaction().execute(async (trx) => {
        await repo.insert(
          trx,
          file,
          upload.bytes,
          passages.map((p, i) => ({ ...p, embedding: vectors?.[i] })),
        );
        await agents.recordFilesChange(user, agentId, trx);
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
              passages: passages.length,
            },
          },
          trx,
        );
      });
      const { user_id: _user, agent_id: _agent, ...row } = file;
      return { ...row, passage_count: passages.length };
    },

    async delete(user: AuthUser, agentId: number, fileId: string) {
      await requireAgent(user.id, agentId);
      await db.kysely.transaction().execute(async (trx) => {
        const name = await repo.delete(trx, user.id, agentId, fileId);
        if (name === undefined) throw notFound('File not found');
        await agents.recordFilesChange(user, agentId, trx);
        await audit.record(
          {
            userId: user.id,
            action: 'knowledge.delete',
            objectType: 'agent',
            objectId: agentId,
            detail: { file_id: fileId },
          },
          trx,
        );
      });
    },
  };
}

export type KnowledgeService = ReturnType<typeof createKnowledgeService>;
