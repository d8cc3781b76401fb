import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster`: the built server as N instances on one PostgreSQL behind HAProxy
 * (apps/server/test/cluster). Apart from the main config because it needs `npm run build` first;
 * `npm test` runs it after the build step. Files run one at a time: each starts its own cluster.
 */
export default defineConfig({
  test: {
    name: 'cluster',
    root: 'apps/server',
    include: ['test/cluster/**/*.cluster.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 180_000,
  },
});
