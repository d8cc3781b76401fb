// Bundles the server into dist/main.js, and the knowledge files' text extraction, which runs in its
// own worker thread, into dist/knowledge-extract.js. Workspace packages (@cadre/*) are TypeScript sources and
// are bundled in; every other dependency stays external and is loaded from node_modules.
//
// Code splitting: what the server imports with `await import(...)` (the built-in identity
// provider, the MCP SDK, the model providers, the offline model...) becomes a chunk of its own,
// loaded on first use with the packages it imports, so a start loads only what every request
// needs. Chunks sit beside main.js, so paths relative to `import.meta.url` resolve the same.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).filter(
  (name) => !name.startsWith('@cadre/') && name !== 'kysely',
);

// A chunk of an earlier build must not linger beside the new ones.
rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });
const { outputFiles } = await build({
  entryPoints: { main: 'src/main.ts', 'knowledge-extract': 'src/modules/knowledge/extract-worker.ts' },
  outdir: 'dist',
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  sourcemap: true,
  external,
  logLevel: 'warning',
  write: false,
});

// V8 keeps each module's source on the heap, two bytes a character if any one character is past
// Latin-1: one `…` in a kept comment made the 540 KB start chunk take 1.08 MB. esbuild escapes such
// characters in strings, regular expressions and names (its `charset: 'ascii'`), not in comments;
// escaped there too, every chunk stays one byte a character. A `\uXXXX` means the same character
// anywhere else, and a comment's text is only read by people.
const pastLatin1 = /[\u0100-\uffff]/g;
const escaped = (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
for (const file of outputFiles) {
  mkdirSync(path.dirname(file.path), { recursive: true });
  writeFileSync(
    file.path,
    file.path.endsWith('.js') ? file.text.replace(pastLatin1, escaped) : file.contents,
  );
}
