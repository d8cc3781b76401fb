import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster`: the built server as three instances on one PostgreSQL behind HAProxy and
 * nginx (apps/server/test/cluster), and the release build. Apart from the main config because it
 * needs `npm run build` first; `npm test` runs it after the build step.
 *
 * - `cluster`: the files run one after another in one worker that keeps its modules, so they share
 *   one cluster (test/cluster/shared-cluster.ts): started once (about 6 s) instead of once a file.
 *   A file that stops an instance or PostgreSQL puts it back, and each signs up its own people.
 *   `ten-instances.cluster.test.ts` alone starts a cluster of its own (ten instances behind PgBouncer).
 * - `release`: deploy/build-release.sh (npm ci, build, production dependencies: a minute or more
 *   of mostly disk work) starts at the beginning, niced, beside the cluster files, which mostly
 *   wait on timers (drains, sweeps, restarts); its test runs after them and checks the result.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'cluster',
          root: 'apps/server',
          include: ['test/cluster/**/*.cluster.test.ts'],
          exclude: ['test/cluster/release.cluster.test.ts'],
          environment: 'node',
          isolate: false,
          fileParallelism: false,
          globalSetup: ['test/cluster/shared-cluster-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'release',
          root: 'apps/server',
          include: ['test/cluster/release.cluster.test.ts'],
          environment: 'node',
          globalSetup: ['test/cluster/release-build.ts'],
          // After the cluster files: the build has had their time to run.
          sequence: { groupOrder: 1 },
          testTimeout: 600_000,
        },
      },
    ],
  },
});
