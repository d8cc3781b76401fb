import crypto from 'node:crypto';
import type { KnowledgeConfig } from '../../config.ts';
import { HttpError } from '../../http/errors.ts';
import type { Embedder } from './embeddings.ts';
import { extractPages } from './extract.ts';
import { displayName, MEDIA_TYPES, sniffKind } from './kinds.ts';
import { splitPassages, type Passage } from './passages.ts';

/** A file as it arrives (an upload's part, an import archive's entry): bytes and what was claimed. */
export interface IncomingFile {
  filename: string | undefined;
  mimetype: string | undefined;
  bytes: Uint8Array;
}

/** A file checked and indexed, ready to be written in one transaction with nothing left to fail. */
export interface PreparedFile {
  id: string;
  name: string;
  media_type: string;
  size_bytes: number;
  sha256: string;
  pages: number | null;
  embedding_model: string | null;
  bytes: Uint8Array;
  passages: (Passage & { embedding?: Buffer })[];
}

export const sha256Of = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

/**
 * Everything an upload or an import does to a file before it is stored (E1-E3): the name made
 * display text, the kind sniffed from the bytes, the text extracted within the budget and split
 * into passages, embedded when a model is configured. Throws 4xx naming what is wrong.
 */
export async function prepareFile(
  file: IncomingFile,
  settings: KnowledgeConfig,
  embedder: Embedder | undefined,
  log: { warn(details: object, message: string): void },
): Promise<PreparedFile> {
  if (file.bytes.length === 0) throw new HttpError('unprocessable_content', 'The file is empty.');
  const name = displayName(file.filename);
  const kind = await sniffKind(file.bytes, name, file.mimetype);
  const pages = await extractPages(kind, file.bytes, settings);
  const passages = splitPassages(kind, pages);
  if (passages.length === 0)
    throw new HttpError(
      'unprocessable_content',
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
  return {
    id: crypto.randomUUID(),
    name,
    media_type: MEDIA_TYPES[kind],
    size_bytes: file.bytes.length,
    sha256: sha256Of(file.bytes),
    pages: kind === 'pdf' ? pages.length : null,
    embedding_model: vectors ? embedder!.model : null,
    bytes: file.bytes,
    passages: passages.map((p, i) => ({ ...p, embedding: vectors?.[i] })),
  };
}
