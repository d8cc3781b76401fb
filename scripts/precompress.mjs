// `node scripts/precompress.mjs <dir>...`: the last step of the web app's and the chat frame's
// builds. Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip, best level) next to
// every text file of the build, so the server sends them as they are (@fastify/static's
// `preCompressed`) instead of compressing the same bytes again on each request, and at a
// quality too slow to spend per request (docs/deployment.md, "Compression").
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** Text the browser fetches; images, fonts and archives are compressed formats already. */
const TEXT = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.txt',
  '.xml',
  '.map',
  '.webmanifest',
]);

const dirs = process.argv.slice(2);
if (!dirs.length) {
  console.error('usage: node scripts/precompress.mjs <dir>...');
  process.exit(2);
}

let files = 0;
let before = 0;
let after = 0;
for (const dir of dirs) {
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !TEXT.has(path.extname(entry.name))) continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = fs.readFileSync(file);
    const br = zlib.brotliCompressSync(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    });
    fs.writeFileSync(`${file}.br`, br);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }));
    files += 1;
    before += bytes.length;
    after += br.length;
  }
}
console.log(
  `precompressed ${files} files in ${dirs.join(', ')}: ${(before / 1024).toFixed(1)} KB, ${(after / 1024).toFixed(1)} KB as brotli`,
);
