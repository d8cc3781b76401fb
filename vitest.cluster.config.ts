import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster`: the built server as three instances on one PostgreSQL behind HAProxy and
 * nginx (apps/server/test/cluster). Apart from the main config because it needs `npm run build`
 * first; `npm test` runs it after the build step. The files run one after another in one worker
 * that keeps its modules, so they share one cluster (test/cluster/shared-cluster.ts), started
 * once (about 6 s) instead of once a file. A file that stops an instance or PostgreSQL puts it
 * back, and each signs up its own people.
 */
export default defineConfig({
  test: {
    name: 'cluster',
    root: 'apps/server',
    include: ['test/cluster/**/*.cluster.test.ts'],
    environment: 'node',
    isolate: false,
    fileParallelism: false,
    globalSetup: ['test/cluster/shared-cluster-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 180_000,
  },
});
