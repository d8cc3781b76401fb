// Starts the built server (apps/server/dist/main.js) on a fresh data folder and a free port, for
// the screenshot and benchmark scripts. With `signIn`, it runs as in production (access code, the
// built-in provider) on its PUBLIC_URL; otherwise sign-in is off (DISABLE_AUTH).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A TCP port nothing listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  api: (method: string, path: string, body?: unknown) => Promise<unknown>;
  stop: () => Promise<void>;
}

/** The beta access code a server started with `signIn` accepts. */
export const SCRIPT_ACCESS_CODE = 'screens-access-code';

export async function startServer(options: { signIn?: boolean } = {}): Promise<RunningServer> {
  const main = path.join(ROOT, 'apps/server/dist/main.js');
  if (!fs.existsSync(main) || !fs.existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) {
    throw new Error('Build first: npm run build');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-e2e-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [main], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...(options.signIn
        ? {
            NODE_ENV: 'production',
            HOST: '127.0.0.1',
            PUBLIC_URL: `http://localhost:${port}`,
            BETA_ACCESS_CODES: SCRIPT_ACCESS_CODE,
            // The gallery enters the code for each load of a screen before sign-in, ten within a
            // minute; the default allows 10 a minute from one address.
            ACCESS_CODE_ATTEMPTS_PER_MINUTE: '1000',
          }
        : { DISABLE_AUTH: 'true', NODE_ENV: 'development' }),
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // Sign-in's redirect URIs are bound to PUBLIC_URL, so the pages are opened there.
  const url = options.signIn ? `http://localhost:${port}` : `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/backend/api/v1/public/health/healthcheck`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('server did not start within 30 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  const api = async (method: string, apiPath: string, body?: unknown) => {
    const response = await fetch(`${url}/backend${apiPath}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${apiPath}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : response.json();
  };
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, api, stop };
}
