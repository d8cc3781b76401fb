import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from './app.ts';
import { openApiDocument } from './http/openapi.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';

/**
 * Builds the server with throwaway settings and returns its OpenAPI document. Used to generate the
 * web app's API client without a running server.
 */
export async function generateOpenApiDocument(): Promise<unknown> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-openapi-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const db = openDatabase(config.database);
  // Some modules read their stored state (signing keys, the catalog) while the app is built.
  await migrateToLatest(db);
  const app = await buildApp({ config, db, webDistDir: path.join(dataDir, 'no-web') });
  try {
    await app.ready();
    return await openApiDocument(app);
  } finally {
    await app.close();
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
