// `npm start`: build what is older than its sources, then run the server in this process.
// A part is rebuilt only when one of its inputs (its sources, the shared packages, its build
// configuration or the lockfile) changed after its output was written, as make would decide; an
// unchanged checkout starts in about a second. Production builds once (`npm run build`) and runs
// `node apps/server/dist/main.js` (docs/deployment.md).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shared = ['packages/contract/src', 'packages/ui/src', 'package-lock.json'];

/** Each part: the inputs that make it, the file its build writes last, and the workspace to build. */
const parts = [
  {
    name: 'web app',
    workspace: 'apps/web',
    inputs: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/package.json',
      'scripts/precompress.mjs',
    ],
    // Written by the build's last step, scripts/precompress.mjs.
    output: 'apps/web/dist/index.html.br',
  },
  {
    name: 'chat frame and copilot',
    workspace: 'apps/chat',
    inputs: [
      'apps/chat/src',
      'apps/chat/index.html',
      'apps/chat/vite.config.ts',
      'apps/chat/vite.copilot.config.ts',
      'apps/chat/package.json',
      'scripts/precompress.mjs',
    ],
    output: 'apps/chat/dist/copilot/index.js.br',
  },
  {
    name: 'server',
    workspace: 'apps/server',
    inputs: ['apps/server/src', 'apps/server/build.mjs', 'apps/server/package.json'],
    output: 'apps/server/dist/main.js',
  },
];

/** The newest modification time under `entry` (a file or a folder), skipping tests. */
function newest(entry) {
  const full = path.join(root, entry);
  let stat;
  try {
    stat = fs.statSync(full);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const child of fs.readdirSync(full)) {
    if (/\.test\.tsx?$/.test(child)) continue;
    latest = Math.max(latest, newest(path.join(entry, child)));
  }
  return latest;
}

function builtAt(output) {
  try {
    return fs.statSync(path.join(root, output)).mtimeMs;
  } catch {
    return 0;
  }
}

for (const part of parts) {
  const sources = Math.max(...[...part.inputs, ...shared].map(newest));
  if (builtAt(part.output) >= sources) continue;
  console.log(`Building the ${part.name} (its sources changed since the last build)...`);
  const result = spawnSync('npm', ['run', 'build', '-w', part.workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`The ${part.name} did not build; see the messages above.`);
    process.exit(result.status ?? 1);
  }
}

await import(pathToFileURL(path.join(root, 'apps/server/dist/main.js')).href);
