import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator } from 'kysely';
import pg from 'pg';
import { expect, inject, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/database.ts';
import { MIGRATION_NAMES, migrateToLatest } from '../src/db/migrate.ts';
import { declaredMigration } from '../src/db/migrations/declared-migration.ts';
import { testDatabaseKind } from './support/test-app.ts';

/** The migrations of the current main, before roles: what an existing install's database has run. */
const BEFORE_ROLES = MIGRATION_NAMES.slice(0, MIGRATION_NAMES.indexOf('0034-roles'));

/** A new, empty database of the kind under test, and how to remove it. */
async function emptyDatabase(): Promise<{ db: Db; remove: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-migration-'));
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://cadre.test',
  };
  let drop = async () => {};
  if (testDatabaseKind() === 'postgres') {
    const adminUrl = inject('postgresUrl');
    const name = `cadre_test_${crypto.randomUUID().replaceAll('-', '')}`;
    const run = async (statement: string) => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(statement);
      await client.end();
    };
    await run(`create database ${name}`);
    env.DATABASE_URL = adminUrl.replace(/\/postgres$/, `/${name}`);
    env.SECRETS_KEY = crypto.randomBytes(32).toString('hex');
    drop = () => run(`drop database if exists ${name} with (force)`);
  }
  const db = openDatabase(loadConfig(env).database);
  return {
    db,
    async remove() {
      await db.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

it(`migrates an install made before roles on ${testDatabaseKind()}: the earliest account is admin, every other a builder`, async () => {
  const { db, remove } = await emptyDatabase();
  try {
    const migrator = new Migrator({
      db: db.kysely,
      migrationTableName: 'schema_migrations',
      migrationLockTableName: 'schema_migrations_lock',
      provider: {
        getMigrations: async () =>
          Object.fromEntries(
            await Promise.all(
              BEFORE_ROLES.map(async (name) => [
                name,
                declaredMigration(
                  name,
                  (await import(`../src/db/migrations/${name}.json`, { with: { type: 'json' } })).default,
                  db.dialect,
                ),
              ]),
            ),
          ),
      },
    });
    const { error } = await migrator.migrateToLatest();
    expect(error).toBeUndefined();
    const at = new Date().toISOString();
    const user = (issuer: string, subject: string) =>
      ({
        issuer,
        subject,
        email: null,
        name: subject,
        picture: null,
        created_at: at,
        updated_at: at,
      }) as never;
    // A demo visitor made first is never the admin.
    await db.kysely
      .insertInto('users')
      .values([
        user('urn:cadre:demo', 'visitor'),
        user('https://idp.test/', 'first'),
        user('https://idp.test/', 'second'),
      ])
      .execute();

    expect(await migrateToLatest(db)).toEqual(MIGRATION_NAMES.slice(BEFORE_ROLES.length));
    const rows = await db.kysely
      .selectFrom('users')
      .select(['subject', 'role', 'disabled_at'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { subject: 'visitor', role: 'builder', disabled_at: null },
      { subject: 'first', role: 'admin', disabled_at: null },
      { subject: 'second', role: 'builder', disabled_at: null },
    ]);
  } finally {
    await remove();
  }
});
