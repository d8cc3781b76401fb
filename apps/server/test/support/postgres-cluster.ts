import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A throwaway PostgreSQL cluster for the test suite, started from the installed server binaries
 * (`initdb` + `pg_ctl`) in a temporary folder on a free port, and removed afterwards. PostgreSQL
 * refuses to run as root, so as root the cluster runs as the `postgres` system user that the
 * Debian package creates.
 */
export interface PostgresCluster {
  url: string;
  /** Its folder (data and socket): what `endPostgresIn` needs to end it from another process. */
  dir: string;
  /** Stops the server (`pg_ctl stop -m fast`), keeping its data, as an outage or a restart would. */
  halt(): Promise<void>;
  /** Starts the halted server again on the same port and data. */
  resume(): Promise<void>;
  /**
   * Freezes the server (SIGSTOP to its postmaster and every backend): connections stay open and
   * nothing answers, as with a hung host or a network that drops packets.
   */
  freeze(): void;
  /** Lets a frozen server go on (SIGCONT). */
  thaw(): void;
  /** Stops the server and removes its data. */
  stop(): Promise<void>;
}

const MISSING =
  "PostgreSQL server binaries (initdb, pg_ctl) were not found. Install the Debian package 'postgresql' " +
  '(apt-get install -y postgresql); the integration tests run on PostgreSQL as well as SQLite.';

function findBinDir(): string {
  const root = '/usr/lib/postgresql';
  if (fs.existsSync(root)) {
    const versions = fs
      .readdirSync(root)
      .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl'))) return dir;
  }
  throw new Error(MISSING);
}

/** A TCP port on 127.0.0.1 free at the moment of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A cluster's processes: its postmaster (from its pid file) and the postmaster's children. */
function processesOf(dataDir: string) {
  const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
  return { postmaster, children };
}

function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    return { uid, gid };
  } catch {
    throw new Error(`Running as root, but there is no 'postgres' user to run the test cluster. ${MISSING}`);
  }
}

function run(binary: string, args: string[], user: { uid: number; gid: number } | undefined) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], ...user });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(binary)} failed (${code}):\n${output}`)),
    );
  });
}

/** `maxConnections`: PostgreSQL's `max_connections` (200 here unless told; PostgreSQL's default is 100). */
export async function startPostgresCluster({ maxConnections = 200 } = {}): Promise<PostgresCluster> {
  const binDir = findBinDir();
  const user = runAs();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-pg-'));
  const dataDir = path.join(base, 'data');
  fs.mkdirSync(dataDir);
  if (user) {
    fs.chownSync(base, user.uid, user.gid);
    fs.chownSync(dataDir, user.uid, user.gid);
  }
  const port = await freePort();

  await run(
    path.join(binDir, 'initdb'),
    ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
    user,
  );
  // fsync off: a test cluster is thrown away, so durability is not worth the time here.
  const serverOptions = `-p ${port} -k ${base} -h 127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=${maxConnections}`;
  const start = () =>
    run(
      path.join(binDir, 'pg_ctl'),
      ['start', '-w', '-t', '60', '-D', dataDir, '-l', path.join(base, 'server.log'), '-o', serverOptions],
      user,
    );
  await start();

  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dir: base,
    freeze() {
      const { postmaster, children } = processesOf(dataDir);
      // The postmaster first, so it starts no backend that would escape the freeze.
      process.kill(postmaster, 'SIGSTOP');
      for (const pid of children) process.kill(pid, 'SIGSTOP');
    },
    thaw() {
      const { postmaster, children } = processesOf(dataDir);
      for (const pid of children) process.kill(pid, 'SIGCONT');
      process.kill(postmaster, 'SIGCONT');
    },
    halt: () => run(path.join(binDir, 'pg_ctl'), ['stop', '-w', '-m', 'fast', '-D', dataDir], user),
    resume: start,
    async stop() {
      try {
        await run(path.join(binDir, 'pg_ctl'), ['stop', '-w', '-m', 'immediate', '-D', dataDir], user);
      } finally {
        fs.rmSync(base, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Ends the cluster in `dir` (a `PostgresCluster`'s) from a process that did not start it, such as
 * a global teardown after the test worker that started it is gone: an immediate shutdown (SIGQUIT
 * to the postmaster, after SIGCONT in case it was left frozen), then its folder is removed.
 */
export async function endPostgresIn(dir: string) {
  const dataDir = path.join(dir, 'data');
  // No pid file: it was halted. A pid file left by a crash may name another process by now.
  if (fs.existsSync(path.join(dataDir, 'postmaster.pid')) && isPostgres(processesOf(dataDir).postmaster)) {
    const { postmaster, children } = processesOf(dataDir);
    for (const pid of [...children, postmaster]) signal(pid, 'SIGCONT');
    signal(postmaster, 'SIGQUIT');
    for (let waited = 0; waited < 5_000 && isPostgres(postmaster); waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

function isPostgres(pid: number) {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return false; // no such process
  }
}

function signal(pid: number, name: NodeJS.Signals) {
  try {
    process.kill(pid, name);
  } catch {
    // ended meanwhile
  }
}
