import { inject } from 'vitest';
import { printedAccessCode, startCluster, type Cluster, type Instance } from './harness.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder the shared cluster runs in; the global teardown ends what runs there. */
    sharedClusterWork: string;
  }
}

export interface SharedCluster extends Cluster {
  nginxUrl: string;
  /** The access code the instances generated (no BETA_ACCESS_CODES), which every sign-up enters. */
  accessCode: string;
}

/**
 * The settings of the shared cluster beyond the harness's own: the first is what one file checks,
 * and no other file depends on it. The database bounds are the defaults, which the frozen-database
 * test (cluster.cluster.test.ts) checks against docs/deployment.md.
 */
const SHARED_ENV = {
  // Few, so agents-from-code.cluster.test.ts reaches the limit in a short burst.
  TRIGGERS_PER_MINUTE: '3',
  // Every file signs people up from 127.0.0.1; the limits per address are the integration tests'.
  IDP_SIGNUPS_PER_HOUR: '1000',
  ACCESS_CODE_ATTEMPTS_PER_MINUTE: '1000',
};

let started: Promise<SharedCluster> | undefined;

/**
 * Three instances on one PostgreSQL behind HAProxy and nginx, started by the first cluster test
 * file that asks and shared by the rest: the files run one after another in one worker that keeps
 * its modules (vitest.cluster.config.ts), so this module's `started` outlives each file. The
 * global teardown (shared-cluster-setup.ts) ends it. A file may stop instances or PostgreSQL, and
 * puts them back; whatever it left, the next file gets three ready instances HAProxy routes to.
 * Files share nothing else: each signs up its own people and reads only their data.
 */
export async function sharedCluster(): Promise<SharedCluster> {
  started ??= startCluster({
    instances: 3,
    nginx: true,
    env: SHARED_ENV,
    work: inject('sharedClusterWork'),
  }).then((cluster) => ({
    ...cluster,
    nginxUrl: cluster.nginxUrl!,
    accessCode: printedAccessCode(cluster.instances[0]!)!,
  }));
  const cluster = await started;
  await restore(cluster);
  return cluster;
}

const isRunning = ({ process }: Instance) => process.exitCode === null && process.signalCode === null;

/** Restarts every instance that is gone (or going), and waits until HAProxy routes to each. */
async function restore(cluster: Cluster) {
  await Promise.all(
    cluster.instances.map(async (instance, index) => {
      if (isRunning(instance)) {
        try {
          await cluster.waitReady(instance);
          return;
        } catch (err) {
          // Only one that was shutting down (and has exited since) is started again.
          if (isRunning(instance)) throw err;
        }
      }
      await cluster.waitReady(await cluster.startInstance(index));
    }),
  );
  // HAProxy takes an instance back at its next check (every 2 s); a pinned request goes to its
  // instance only once it is back.
  for (const { name } of cluster.instances) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await fetch(`${cluster.url}/backend/api/v1/public/health/live`, {
        headers: { 'x-pin-backend': name },
      });
      await res.arrayBuffer();
      if (res.headers.get('x-backend') === name) break;
      if (Date.now() > deadline) throw new Error(`HAProxy did not route to ${name} within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
