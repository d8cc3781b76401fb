import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SQLITE_ONLY } from './apps/server/test/support/databases.ts';

/**
 * One Vitest run, several projects. The server's integration suite (`*.int.test.ts`) runs on a
 * temporary SQLite file, and all of it but the files listed in `test/support/databases.ts` again
 * on a throwaway PostgreSQL cluster that `test/support/postgres-global-setup.ts` starts from the
 * installed server binaries. The SQLite run records the SQL each file runs and checks that the
 * SQLite-only files run none that PostgreSQL does not (`test/support/sql-coverage-check.ts`).
 *
 * Test files share their worker's loaded modules (`isolate: false`): loading the app, Chakra and
 * the router again for every file cost more than the tests themselves (docs/benchmarks.md, "Test
 * suite"). What a test changes globally is undone after it: spies and stubbed globals by the
 * options below, the DOM by the jsdom setup's cleanup.
 */
const serverIntegration = (db: 'sqlite' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `server-${db}`,
    root: 'apps/server',
    include: ['test/**/*.int.test.ts'],
    exclude: db === 'postgres' ? SQLITE_ONLY : [],
    environment: 'node',
    env: { CADRE_TEST_DB: db },
    globalSetup: [
      db === 'postgres' ? 'test/support/postgres-global-setup.ts' : 'test/support/sql-coverage-check.ts',
    ],
    setupFiles: db === 'sqlite' ? ['test/support/sql-coverage.ts'] : [],
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

// Absolute, because each project resolves its setup files from its own root.
const jsdomSetup = fileURLToPath(new URL('./vitest.jsdom-setup.ts', import.meta.url));

const jsdomProject = (name: 'web' | 'chat') => ({
  test: {
    name,
    root: `apps/${name}`,
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: [jsdomSetup, 'src/test/setup.ts'],
    isolate: false,
    restoreMocks: true,
    unstubGlobals: true,
    // Role queries in jsdom compute styles on every poll; beside the PostgreSQL suite on 2 cores
    // one screen test can take seconds.
    testTimeout: 30_000,
  },
});

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine. The
    // integration files spend much of their time waiting on the database and on timers, so
    // more workers than cores keep both cores busy (docs/benchmarks.md, "Test suite").
    maxWorkers: Math.max(3, os.availableParallelism()),
    projects: [
      {
        test: {
          name: 'contract',
          root: 'packages/contract',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server-unit',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.unit.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      serverIntegration('sqlite'),
      serverIntegration('postgres'),
      jsdomProject('web'),
      jsdomProject('chat'),
    ],
  },
});
