// Bundles the server into dist/main.js, and the knowledge files' text extraction, which runs in its
// own worker thread, into dist/knowledge-extract.js. Workspace packages (@cadre/*) are TypeScript sources and
// are bundled in; every other dependency stays external and is loaded from node_modules.
//
// Code splitting: what the server imports with `await import(...)` (the built-in identity
// provider, the MCP SDK, the model providers, the offline model...) becomes a chunk of its own,
// loaded on first use with the packages it imports, so a start loads only what every request
// needs. Chunks sit beside main.js, so paths relative to `import.meta.url` resolve the same.
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).filter(
  (name) => !name.startsWith('@cadre/') && name !== 'kysely',
);

// A chunk of an earlier build must not linger beside the new ones.
rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });
await build({
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
});
