import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { endClusterIn } from './harness.ts';

/**
 * The shared cluster (shared-cluster.ts) is started by the test worker, which Vitest stops at the
 * end without a hook to stop it; its folder is made here, and what still runs there is ended when
 * all files are done.
 */
export default function setup(project: TestProject) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-cluster-'));
  project.provide('sharedClusterWork', work);
  return () => endClusterIn(work);
}
