import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * One Vitest run, several projects. The server's integration suite (`*.int.test.ts`) runs twice:
 * on a temporary SQLite file and on a throwaway PostgreSQL cluster that `test/postgres-global-setup`
 * starts from the installed server binaries.
 */
const serverIntegration = (db: 'sqlite' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `server-${db}`,
    root: 'apps/server',
    include: ['test/**/*.int.test.ts'],
    environment: 'node',
    env: { CADRE_TEST_DB: db },
    globalSetup: db === 'postgres' ? ['test/support/postgres-global-setup.ts'] : [],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

// Absolute, because each project resolves its setup files from its own root.
const jsdomSetup = fileURLToPath(new URL('./vitest.jsdom-setup.ts', import.meta.url));

export default defineConfig({
  test: {
    reporters: process.env.CI ? ['default'] : ['default'],
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
      {
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: [jsdomSetup, 'src/test/setup.ts'],
          // Role queries in jsdom compute styles on every poll; beside the PostgreSQL suite on 2 cores
          // one screen test can take seconds.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'chat',
          root: 'apps/chat',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: [jsdomSetup, 'src/test/setup.ts'],
          // Role queries in jsdom compute styles on every poll; beside the PostgreSQL suite on 2 cores
          // one screen test can take seconds.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
