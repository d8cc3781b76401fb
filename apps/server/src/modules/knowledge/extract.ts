import { Worker } from 'node:worker_threads';
import { unzipSync } from 'fflate';
import pLimit from 'p-limit';
import type { KnowledgeConfig } from '../../config.ts';
import { HttpError } from '../../http/errors.ts';
import type { ExtractReply, ExtractRequest } from './extract-worker.ts';
import type { KnowledgeKind } from './kinds.ts';

/** A file's text, page by page (`page` null for kinds without pages). */
export type ExtractedPage = { page: number | null; text: string };

type Limits = Pick<
  KnowledgeConfig,
  | 'maxPdfPages'
  | 'maxUnzippedBytes'
  | 'maxZipEntries'
  | 'maxTextChars'
  | 'extractTimeoutMs'
  | 'extractMemoryMb'
>;

// From the sources (tests, tsx) the worker is its TypeScript file; in the build, its own bundle.
const WORKER = import.meta.url.endsWith('.ts')
  ? new URL('./extract-worker.ts', import.meta.url)
  : new URL('./knowledge-extract.js', import.meta.url);

// Parsing is CPU work: one instance parses at most two files at once, the rest wait their turn.
const parsing = pLimit(2);

const refuse = (detail: string) => new HttpError('unprocessable_content', detail);

/**
 * A DOCX is a zip: refused when its directory declares more entries or more unpacked bytes than
 * allowed (a zip bomb), before anything is inflated. A zip lying about its sizes still meets the
 * worker's heap limit and deadline.
 */
function checkArchive(bytes: Uint8Array, limits: Limits) {
  let entries = 0;
  let unpacked = 0;
  try {
    unzipSync(bytes, {
      filter: (file) => {
        entries += 1;
        unpacked += file.originalSize;
        return false;
      },
    });
  } catch {
    throw refuse('The DOCX file is not a readable zip archive.');
  }
  if (entries > limits.maxZipEntries)
    throw refuse(`The DOCX file holds ${entries} entries; at most ${limits.maxZipEntries} are accepted.`);
  if (unpacked > limits.maxUnzippedBytes)
    throw refuse(
      `The DOCX file would unpack to ${unpacked} bytes; at most ${limits.maxUnzippedBytes} are accepted (KNOWLEDGE_MAX_UNZIPPED_BYTES).`,
    );
}

/** Runs one parse in a fresh worker thread with a heap limit and a deadline. */
function inWorker(request: ExtractRequest, limits: Limits): Promise<ExtractReply> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      workerData: request,
      transferList: [request.bytes.buffer as ArrayBuffer],
      resourceLimits: {
        maxOldGenerationSizeMb: limits.extractMemoryMb,
        maxYoungGenerationSizeMb: Math.max(8, Math.floor(limits.extractMemoryMb / 8)),
        stackSizeMb: 4,
      },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      void worker.terminate();
      outcome();
    };
    const deadline = setTimeout(
      () =>
        finish(() =>
          reject(
            refuse(
              `Reading the file took longer than ${limits.extractTimeoutMs / 1000} s (KNOWLEDGE_EXTRACT_TIMEOUT_MS); it was stopped.`,
            ),
          ),
        ),
      limits.extractTimeoutMs,
    );
    worker.once('message', (reply: ExtractReply) => finish(() => resolve(reply)));
    worker.once('error', (error: Error & { code?: string }) =>
      finish(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? refuse(
                `Reading the file needed more than ${limits.extractMemoryMb} MB of memory (KNOWLEDGE_EXTRACT_MEMORY_MB); it was stopped.`,
              )
            : refuse('The file could not be read.'),
        ),
      ),
    );
    worker.once('exit', () => finish(() => reject(refuse('The file could not be read.'))));
  });
}

/**
 * The text of an uploaded file. Text kinds are decoded here (they were checked to be UTF-8); PDF,
 * DOCX and HTML are parsed in a worker thread with a time and memory budget. Throws 422 naming
 * the limit a file breaks.
 */
export async function extractPages(
  kind: KnowledgeKind,
  bytes: Uint8Array,
  limits: Limits,
): Promise<ExtractedPage[]> {
  let pages: ExtractedPage[];
  if (kind === 'markdown' || kind === 'text' || kind === 'csv') {
    pages = [{ page: null, text: new TextDecoder().decode(bytes).replace(/^\uFEFF/, '') }];
  } else {
    if (kind === 'docx') checkArchive(bytes, limits);
    // The worker takes its own copy of the bytes (the caller keeps the original to store).
    const request: ExtractRequest = { kind, bytes: new Uint8Array(bytes), maxPdfPages: limits.maxPdfPages };
    const reply = await parsing(() => inWorker(request, limits));
    if (!reply.ok) {
      if (reply.reason === 'too_many_pages')
        throw refuse(
          `The PDF has ${reply.pages} pages; at most ${limits.maxPdfPages} are accepted (KNOWLEDGE_MAX_PDF_PAGES).`,
        );
      throw refuse(
        `The ${kind.toUpperCase()} file could not be read: it is damaged or not really a ${kind.toUpperCase()}.`,
      );
    }
    pages = reply.pages;
  }
  // PostgreSQL stores no NUL characters, and no text means one.
  pages = pages.map((p) => ({ page: p.page, text: p.text.replaceAll('\u0000', '') }));
  const chars = pages.reduce((n, p) => n + p.text.length, 0);
  if (chars > limits.maxTextChars)
    throw refuse(
      `The file holds ${chars} characters of text; at most ${limits.maxTextChars} are accepted (KNOWLEDGE_MAX_TEXT_CHARS).`,
    );
  return pages;
}
