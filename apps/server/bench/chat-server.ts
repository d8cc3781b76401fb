/**
 * The Cadre server for `bench:chat`, in its own process so the benchmark client never shares its
 * event loop (SQLite commits block it). Reads the configuration from the environment, seeds one
 * user (issuer + subject `bench-user`) and one agent, listens on a free port and prints
 * `{"address", "agentId"}` as one JSON line on stdout.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { seedBenchAgent, seedBenchUser } from './seed.ts';

const config = loadConfig(process.env);
const db = openDatabase(config.database);
await migrateToLatest(db);
const userId = await seedBenchUser(db, process.env.OIDC_ISSUER!);
const agentId = await seedBenchAgent(db, userId, {
  name: 'Bench agent',
  description: 'Answers quickly.',
  guidelines: 'Be brief.',
});
const noWeb = path.join(config.dataDir, 'no-web');
fs.mkdirSync(noWeb, { recursive: true });
const app = await buildApp({ config, db, webDistDir: noWeb });
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ address, agentId })}\n`);
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => db.close())
    .finally(() => process.exit(0));
});
