// Bundles the server into dist/main.js, and the knowledge files' text extraction, which runs in its
// own worker thread, into dist/knowledge-extract.js. Workspace packages (@cadre/*) are TypeScript sources and
// are bundled in; every other dependency stays external and is loaded from node_modules.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).filter((name) => !name.startsWith('@cadre/'));

await build({
  entryPoints: { main: 'src/main.ts', 'knowledge-extract': 'src/modules/knowledge/extract-worker.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
