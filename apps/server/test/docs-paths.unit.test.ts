import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The docs name only files that exist: every repository path written in backticks in `docs/*.md`
 * and `README.md` is a file or folder of the repository. A renamed or deleted file whose old name
 * is left in a doc fails here, with the doc, the line and the name.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Extensions of the files the docs name: source, configuration, pages. */
const FILE_EXTENSIONS = /[^/.][^/]*\.(?:[cm]?[jt]s|tsx|json|md|ya?ml|cfg|conf|html|css|sql|sh)$/;
/**
 * Not paths: URLs, routes and absolute paths outside the repository (`/backend/...`, `/etc/...`),
 * npm packages (`@scope/name`), placeholders, globs and shell variables (`<id>`, `{id}`, `*`,
 * `$DATA_DIR`, `NNNN-name.json`), settings (`A=b`), addresses (`::1/128`), and the parent folders
 * of path traversal examples.
 */
const NOT_A_PATH = /\s|:\/\/|^[/@~]|[<>{}[\]*$=?|,:…]|([A-Z])\1{2,}|(?:^|\/)\.\.(?:\/|$)/;
/** Folders a doc writes paths from besides the repository's own top level (workspaces, modules). */
const RELATIVE_ROOTS = new Set(['src', 'test', 'modules', 'features']);
/** Names a doc writes in backticks that are not files of the repository, and what they are. */
const NOT_REPOSITORY_FILES = new Map([
  ['agent.json', 'the document inside an exported agent archive'],
  ['DESIGN.md', 'the design document, kept beside the repository in shared/'],
  ['shared/reference/security-tests.md', 'the security test list, kept beside the repository'],
]);

interface NamedPath {
  doc: string;
  line: number;
  name: string;
}

/**
 * The repository paths `text` names: backticked spans outside fenced code blocks that end in a
 * file extension, or start with a top-level entry of the repository (`apps/server`, `.ci/run`)
 * or a workspace's `src`, `test`, `modules` or `features`. A `#fragment` is dropped; build
 * output (a `dist` folder) is not in the repository and is left out.
 */
function namedPaths(doc: string, text: string, topLevel: ReadonlySet<string>): NamedPath[] {
  const found: NamedPath[] = [];
  let fenced = false;
  for (const [index, line] of text.split('\n').entries()) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    for (const [, span] of line.matchAll(/`([^`]+)`/g)) {
      const name = span!.replace(/#.*$/, '').replace(/^\.\//, '');
      if (!name || NOT_A_PATH.test(name) || NOT_REPOSITORY_FILES.has(name)) continue;
      const segments = name.split('/');
      if (segments.includes('dist')) continue;
      const first = segments[0]!;
      if (FILE_EXTENSIONS.test(name) || topLevel.has(first) || RELATIVE_ROOTS.has(first)) {
        found.push({ doc, line: index + 1, name });
      }
    }
  }
  return found;
}

/**
 * Whether `name` is a file or folder among `files` (paths from the repository root): from the root,
 * or from any folder below it, since docs write paths from a workspace's `src` or a module's folder
 * (`chat/runs.ts`, `lib/paged-list.ts`) and bare file names (`sse-body.ts`).
 */
function exists(name: string, files: readonly string[]): boolean {
  const wanted = name.replace(/\/$/, '');
  return files.some((file) => {
    const at = `/${file}`;
    return at.endsWith(`/${wanted}`) || at.includes(`/${wanted}/`);
  });
}

function repositoryFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  // A file deleted in the working tree but not yet in the index is gone for a reader too.
  return listed.split('\n').filter((file) => file && fs.existsSync(path.join(root, file)));
}

const stale = (docs: { doc: string; text: string }[], files: readonly string[]) => {
  const topLevel = new Set(files.map((file) => file.split('/')[0]!));
  return docs
    .flatMap(({ doc, text }) => namedPaths(doc, text, topLevel))
    .filter(({ name }) => !exists(name, files));
};

describe('paths named in the docs', () => {
  const files = repositoryFiles();

  it('are files or folders of the repository', () => {
    const docs = [
      ...fs
        .readdirSync(path.join(root, 'docs'))
        .filter((file) => file.endsWith('.md'))
        .map((file) => `docs/${file}`),
      'README.md',
    ].map((doc) => ({ doc, text: fs.readFileSync(path.join(root, doc), 'utf8') }));
    const missing = stale(docs, files).map(
      ({ doc, line, name }) =>
        `${doc}:${line} names \`${name}\`, which is no file or folder of the repository`,
    );
    expect(missing, missing.join('\n')).toEqual([]);
  });

  it('resolves paths from the root, a workspace or a module, and bare file names', () => {
    const text = [
      '`apps/server/src/http/auth.ts`, `apps/server/test/cluster`, `chat/runs.ts`, `lib/paged-list.ts`,',
      '`test/auth.int.test.ts`, `modules/offline-model`, `card-table.tsx`, `e2e/`, `.nvmrc`,',
      '`src/db/compiled.ts#compiledOnce`.',
    ].join('\n');
    expect(stale([{ doc: 'example.md', text }], files)).toEqual([]);
    expect(namedPaths('example.md', text, new Set(['apps', 'e2e', '.nvmrc']))).toHaveLength(10);
  });

  it('names the doc, the line and the path of a file that is gone', () => {
    const text = 'Checked by `no-direct-network.test.ts`.\n\nThe table is `components/card-table.ts`.';
    expect(stale([{ doc: 'docs/example.md', text }], files)).toEqual([
      { doc: 'docs/example.md', line: 1, name: 'no-direct-network.test.ts' },
      { doc: 'docs/example.md', line: 3, name: 'components/card-table.ts' },
    ]);
  });

  it('leaves out what is not a repository path', () => {
    const text = [
      '`https://cadre.example.com/x.md` `/backend/api/v1/agents/` `/etc/passwd` `@cadre/chat/client`',
      '`src/features/<name>` `test/tools-*.int.test.ts` `$DATA_DIR/cadre.sqlite` `PUBLIC_URL=x.json`',
      '`src/db/migrations/NNNN-name.json` `DESIGN.md`',
      '`files/../../x.ts` `application/pdf` `tools/call` `dist/main.js` `agent.json` `.md` `./data`',
      '```sh',
      'cat `gone.ts`',
      '```',
    ].join('\n');
    expect(namedPaths('example.md', text, new Set(['apps']))).toEqual([]);
  });
});
