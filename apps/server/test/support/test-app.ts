import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type AppOptions } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase, type Db } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createVault, loadOrCreateKeyFile, type Vault } from '../../src/security/vault.ts';

export type TestDatabaseKind = 'sqlite' | 'postgres';

/** Which database this test project runs on (set per Vitest project). */
export const testDatabaseKind = (): TestDatabaseKind =>
  process.env.CADRE_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  dataDir: string;
  /** Every log line the app wrote, for assertions about what is (not) logged. */
  logs: string[];
  /** The environment the app was configured from. */
  settings: Record<string, string>;
  /** The app's vault (SECRETS_KEY, or the data folder's key file), to open what it sealed. */
  vault: Vault;
  close(): Promise<void>;
}

/**
 * Boots the real app in-process on a fresh database: a temporary SQLite file, or a new database
 * in the test PostgreSQL cluster. `env` overrides settings exactly as the environment would.
 * `sameDatabaseAs` boots a second instance on another app's database, data folder and keys, as a
 * second server behind a load balancer would run; closing it leaves the database to the first.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  extra: Pick<AppOptions, 'chat' | 'demos' | 'lifecycle' | 'identity' | 'triggers' | 'apiKeys'> = {},
  { sameDatabaseAs }: { sameDatabaseAs?: TestApp } = {},
): Promise<TestApp> {
  if (sameDatabaseAs) return bootApp({ ...sameDatabaseAs.settings, ...env }, extra, async () => {});
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-test-'));
  const kind = testDatabaseKind();
  let dropDatabase = async () => {};
  const settings: Record<string, string> = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    PUBLIC_URL: 'http://cadre.test',
    ...env,
  };
  if (kind === 'postgres') {
    const adminUrl = inject('postgresUrl');
    const name = `cadre_test_${crypto.randomUUID().replaceAll('-', '')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    settings.DATABASE_URL = adminUrl.replace(/\/postgres$/, `/${name}`);
    // Every instance on one PostgreSQL needs the same vault key; each test database gets its own.
    settings.SECRETS_KEY ??= crypto.randomBytes(32).toString('hex');
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  }

  return bootApp(settings, extra, async () => {
    await dropDatabase();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
}

async function bootApp(
  settings: Record<string, string>,
  extra: Pick<AppOptions, 'chat' | 'demos' | 'lifecycle' | 'identity' | 'triggers' | 'apiKeys'>,
  cleanUp: () => Promise<void>,
): Promise<TestApp> {
  let config: Config;
  try {
    config = loadConfig(settings);
  } catch (error) {
    // A configuration the start refuses still leaves no test database or folder behind.
    await cleanUp();
    throw error;
  }
  const dataDir = config.dataDir;
  const db = openDatabase(config.database);
  await migrateToLatest(db);
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(String(chunk));
      callback();
    },
  });
  const app = await buildApp({ config, db, logStream, webDistDir: path.join(dataDir, 'no-web'), ...extra });
  await app.ready();
  return {
    app,
    db,
    config,
    dataDir,
    logs,
    settings,
    vault: createVault(config.secretsKey ?? loadOrCreateKeyFile(dataDir)),
    async close() {
      await app.close();
      await db.close();
      await cleanUp();
    },
  };
}
