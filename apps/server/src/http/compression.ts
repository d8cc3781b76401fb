import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Brotli at quality 4 (zlib's default is 11): within a few per cent of the size at a small part
 * of the CPU, the same trade @fastify/compress recommends. The agent list compresses its kept
 * answers with it too (modules/agents/list-answers.ts).
 */
export const BROTLI_OPTIONS: zlib.BrotliOptions = {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  },
};

/**
 * Compresses answers with brotli or gzip, as the client's Accept-Encoding prefers, from
 * COMPRESSION_THRESHOLD_BYTES up (docs/deployment.md: the proxies in front do not compress again).
 * What counts as compressible is the plugin's: text, JSON and XML, and what mime-db marks so, but
 * never `text/event-stream`: a compressor holds bytes back until it has enough to compress, so a
 * chat answer would arrive in lumps instead of token by token (test/compression.int.test.ts).
 * Registered before any route, since it attaches itself to each route as it is added. A route
 * that sends bytes it compressed already sets Content-Encoding (precompressed static files, the
 * agent list's kept answers), and is passed through. Request bodies are not decompressed: the API
 * takes them as sent, as before.
 */
export async function registerCompression(app: FastifyInstance) {
  await app.register(compress, {
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: BROTLI_OPTIONS,
    globalDecompression: false,
  });
}

/**
 * @fastify/static options for a build precompressed by scripts/precompress.mjs: `x.js.br` or
 * `x.js.gz` goes out for `x.js` when the client accepts it, with Content-Encoding set (so the
 * plugin above leaves it alone), and the compressed files get no URL of their own.
 */
export const PRECOMPRESSED_FILES = { preCompressed: true, globIgnore: ['**/*.br', '**/*.gz'] };

/** The file a static answer stands for (`x.js` for `x.js.br`), for headers chosen by file. */
export const servedFile = (filePath: string) => filePath.replace(/\.(?:br|gz)$/, '');
