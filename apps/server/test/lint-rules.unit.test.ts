import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The layout rules `npm run lint` enforces with eslint.config.js (docs/architecture.md): module
 * boundaries, the 300-line cap, and the front ends' 120-line functions. Each case lints a made-up file at a real path, so a rule that
 * is weakened, or stops applying, fails here.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

async function errorsOf(file: string, text: string, rule: string) {
  const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

const boundaryErrors = (file: string, text: string) => errorsOf(file, text, 'import-x/no-restricted-paths');

const chatFile = 'apps/server/src/modules/chat/example.ts';
const deepImport =
  "import { createAgentsRepository } from '../agents/repository.ts';\nexport const x = createAgentsRepository;";

describe('module boundaries', () => {
  const startDir = process.cwd();
  afterEach(() => process.chdir(startDir));

  it('refuses a module importing another module past its index.ts, and allows the index', async () => {
    expect((await boundaryErrors(chatFile, deepImport)).join('\n')).toContain(
      'Use another module only through its index.ts',
    );
    expect(
      await boundaryErrors(
        chatFile,
        "import { agentsRoutes } from '../agents/index.ts';\nexport const x = agentsRoutes;",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        chatFile,
        "import { createThreads } from './threads.ts';\nexport const x = createThreads;",
      ),
    ).toEqual([]);
  });

  it('refuses the shared layers importing any module, type-only imports too', async () => {
    const cases: [string, string][] = [
      [
        'apps/server/src/http/example.ts',
        "import { usersRoutes } from '../modules/users/index.ts';\nexport const x = usersRoutes;",
      ],
      [
        'apps/server/src/db/example.ts',
        "import type { AgentsService } from '../modules/agents/index.ts';\nexport type X = AgentsService;",
      ],
      [
        'apps/server/src/security/example.ts',
        "import { toolsUserData } from '../modules/tools/index.ts';\nexport const x = toolsUserData;",
      ],
      [
        'apps/server/src/kernel.ts',
        "import type { ToolCatalog } from './modules/tools/index.ts';\nexport type X = ToolCatalog;",
      ],
      [
        'apps/server/src/user-clock.ts',
        "import { OFFLINE_MODEL_ID } from './modules/offline-model/index.ts';\nexport const x = OFFLINE_MODEL_ID;",
      ],
    ];
    for (const [file, text] of cases) {
      expect((await boundaryErrors(file, text)).join('\n'), file).toContain('Shared layers import no module');
    }
  });

  it('refuses a web feature importing another feature', async () => {
    const errors = await boundaryErrors(
      'apps/web/src/features/agents/example.ts',
      "import * as auth from '../auth/index.ts';\nexport const x = auth;",
    );
    expect(errors.join('\n')).toContain('Features do not import each other');
    expect(
      await boundaryErrors(
        'apps/web/src/routes/example.ts',
        "import * as auth from '../features/auth/index.ts';\nexport const x = auth;",
      ),
    ).toEqual([]);
  });

  it('applies the zones whichever folder lint runs from', async () => {
    process.chdir(os.tmpdir());
    expect((await boundaryErrors(chatFile, deepImport)).length).toBeGreaterThan(0);
  });
});

describe('the 300-line cap', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const x${i} = ${i};`).join('\n');
  const capErrors = (file: string, n: number) => errorsOf(file, lines(n), 'max-lines');

  it('refuses a module file over 300 lines', async () => {
    expect(await capErrors(chatFile, 300)).toEqual([]);
    expect((await capErrors(chatFile, 301)).join('\n')).toMatch(/Maximum allowed is 300/);
  });

  it('leaves tests and the data tables alone', async () => {
    expect(await capErrors('apps/server/src/modules/chat/example.test.ts', 400)).toEqual([]);
    expect(await capErrors('apps/server/src/modules/demos/data/example.ts', 400)).toEqual([]);
  });
});

describe("the front ends' line caps", () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const x${i} = ${i};`).join('\n');
  const capErrors = (file: string, n: number) => errorsOf(file, lines(n), 'max-lines');
  /** A function of `n` lines of code, and a blank line and a comment besides (which do not count). */
  const component = (n: number) =>
    [
      'export function Example() {',
      ...Array.from({ length: n - 2 }, (_, i) => `  const x${i} = ${i};`),
      '',
      '  // blank lines and comments do not count',
      '}',
    ].join('\n');
  const functionErrors = (file: string, n: number) => errorsOf(file, component(n), 'max-lines-per-function');

  it('refuses a web or chat file over 300 lines, .ts and .tsx', async () => {
    for (const file of [
      'apps/web/src/features/agents/example.ts',
      'apps/web/src/components/example.tsx',
      'apps/chat/src/components/example.tsx',
      'apps/chat/src/lib/example.ts',
    ]) {
      expect(await capErrors(file, 300), file).toEqual([]);
      expect((await capErrors(file, 301)).join('\n'), file).toMatch(/Maximum allowed is 300/);
    }
  });

  it('refuses a web or chat function over 120 lines, blank lines and comments aside', async () => {
    for (const file of [
      'apps/web/src/features/agents/components/example.tsx',
      'apps/chat/src/components/example.tsx',
    ]) {
      expect(await functionErrors(file, 120), file).toEqual([]);
      expect((await functionErrors(file, 121)).join('\n'), file).toMatch(/Maximum allowed is 120/);
    }
  });

  it('leaves their tests and test helpers alone', async () => {
    for (const file of [
      'apps/web/src/features/agents/components/example.test.tsx',
      'apps/chat/src/lib/example.test.ts',
      'apps/web/src/test/example.ts',
      'apps/chat/src/test/example.tsx',
    ]) {
      expect(await capErrors(file, 400), file).toEqual([]);
      expect(await functionErrors(file, 200), file).toEqual([]);
    }
  });
});
