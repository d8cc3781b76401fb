// In-process benchmarks (bench:knowledge, bench:growth) seed rows straight into the database; npm run
// bench's seed.ts goes through a running server's HTTP API instead.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

/**
 * A fresh data folder, the production settings an in-process benchmark runs with (plus `env`: the
 * issuer's, a database URL...), and its database, migrated.
 */
export async function openBenchDatabase(name: string, env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `cadre-bench-${name}-`));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PORT: '0',
    BETA_ACCESS_CODES: 'bench',
    ...env,
  });
  const db = openDatabase(config.database);
  await migrateToLatest(db);
  return { dataDir, config, db };
}

/**
 * The benchmarks' user: tokens for `sub` BENCH_SUBJECT from the given issuer find this row. It has
 * passed the beta access-code gate, as every user of a running instance has (the chat sign-in
 * refuses one who has not).
 */
export const BENCH_SUBJECT = 'bench-user';

export async function seedBenchUser(db: Db, issuer: string): Promise<number> {
  const now = new Date().toISOString();
  const { id } = await db.kysely
    .insertInto('users')
    .values({
      issuer,
      subject: BENCH_SUBJECT,
      email: 'bench@example.com',
      name: 'Bench',
      picture: null,
      admitted_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** An agent of the bench user, inserted as the API would store it. */
export async function seedBenchAgent(
  db: Db,
  userId: number,
  agent: { name: string; description: string; guidelines: string },
): Promise<number> {
  const now = new Date().toISOString();
  const { id } = await db.kysely
    .insertInto('agents')
    .values({ user_id: userId, ...agent, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}
