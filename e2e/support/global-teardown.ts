import fs from 'node:fs';

/** Removes the fresh data folder the server used during the run. */
export default function globalTeardown() {
  const dir = process.env.E2E_DATA_DIR;
  if (dir && dir.includes('cadre-e2e-')) fs.rmSync(dir, { recursive: true, force: true });
}
