import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { BROTLI_OPTIONS } from '../../http/compression.ts';

/** The encodings a list answer is kept in besides its plain bytes, in the server's preference. */
export const LIST_ENCODINGS = ['br', 'gzip'] as const;
export type ListEncoding = (typeof LIST_ENCODINGS)[number];

const compressors: Record<ListEncoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) => promisify(zlib.brotliCompress)(body, BROTLI_OPTIONS),
  gzip: (body) => promisify(zlib.gzip)(body),
};

/** One shape of a user's list (all of it, a page, what a limited API key sees) at one version. */
export interface ListAnswer {
  /** The JSON body as sent without encoding. */
  readonly body: Buffer;
  /** The agent id the next page starts after, for a full page; null when the list ends here. */
  readonly nextAfter: number | null;
  /** The body in `encoding`, compressed on the first request that asks for it, then kept. */
  encoded(encoding: ListEncoding): Promise<Buffer>;
}

interface Entry {
  /** The list version the answer was built at (or after: see `get`). */
  version: number;
  answer: Promise<ListAnswer>;
  bytes: number;
}

/** What bounds the kept answers: the oldest used goes first once either is passed. */
export interface ListCacheLimits {
  maxEntries: number;
  maxBytes: number;
}

/**
 * The agent list's answers kept in memory, per user and shape, with the list version each was
 * built at (db/list-versions.ts): a request whose version matches is answered with the kept bytes,
 * already compressed for its Accept-Encoding, without reading the list's tables or serializing.
 * Least recently used first out, by count and by bytes (plain and compressed together).
 */
export function listAnswerCache(limits: ListCacheLimits) {
  const entries = new Map<string, Entry>();
  let totalBytes = 0;

  const evict = () => {
    for (const [key, entry] of entries) {
      if (entries.size <= limits.maxEntries && totalBytes <= limits.maxBytes) return;
      entries.delete(key);
      totalBytes -= entry.bytes;
    }
  };
  /** Counts bytes an entry came to hold, unless it has left the cache meanwhile. */
  const grow = (key: string, entry: Entry, bytes: number) => {
    if (entries.get(key) !== entry) return;
    entry.bytes += bytes;
    totalBytes += bytes;
    evict();
  };

  const answerOf = (key: string, entry: Entry, body: Buffer, nextAfter: number | null): ListAnswer => {
    const encodings = new Map<ListEncoding, Promise<Buffer>>();
    return {
      body,
      nextAfter,
      encoded(encoding) {
        let encoded = encodings.get(encoding);
        if (!encoded) {
          encoded = compressors[encoding](body);
          encodings.set(encoding, encoded);
          void encoded.then(
            (bytes) => grow(key, entry, bytes.length),
            () => encodings.delete(encoding),
          );
        }
        return encoded;
      },
    };
  };

  return {
    /**
     * The answer for `key` at `version`, built by `build` when none is kept at that version or a
     * later one. `build` must read the list after `version` was read, so what it returns is at
     * least as new as `version`; an answer kept from a later version is then just as good.
     * Concurrent requests for the same key and version share one build.
     */
    get(
      key: string,
      version: number,
      build: () => Promise<{ body: string; nextAfter: number | null }>,
    ): Promise<ListAnswer> {
      const kept = entries.get(key);
      if (kept && kept.version >= version) {
        // Most recently used goes last, so eviction starts with the others.
        entries.delete(key);
        entries.set(key, kept);
        return kept.answer;
      }
      const entry: Entry = { version, answer: undefined as unknown as Promise<ListAnswer>, bytes: 0 };
      entry.answer = build().then(({ body, nextAfter }) => {
        const bytes = Buffer.from(body);
        grow(key, entry, bytes.length);
        return answerOf(key, entry, bytes, nextAfter);
      });
      // A failed build is not kept: the next request builds again.
      entry.answer.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      if (kept) totalBytes -= kept.bytes;
      entries.delete(key);
      entries.set(key, entry);
      evict();
      return entry.answer;
    },

    /** How many answers and bytes are kept (tests, metrics). */
    size: () => ({ entries: entries.size, bytes: totalBytes }),
  };
}
