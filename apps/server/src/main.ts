import fs from 'node:fs';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { generatedAccessCode } from './modules/access-code/index.ts';

/** The process entry: configuration, database, migrations, listen, graceful shutdown. */
async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Cadre cannot start. ${err.message}\nSee docs/configuration.md.\n`);
      process.exit(1);
    }
    throw err;
  }

  fs.mkdirSync(config.dataDir, { recursive: true });
  const db = openDatabase(config.database);
  const applied = await migrateToLatest(db);
  const app = await buildApp({ config, db });
  if (applied.length) app.log.info({ migrations: applied }, 'database migrated');

  closeWithGrace({ delay: config.shutdownTimeoutMs }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an unexpected error');
    else app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // Stops accepting connections, waits for in-flight requests, runs onClose hooks.
    await app.close();
    await db.close();
  });

  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { url: config.publicUrl, database: config.database.kind, dataDir: config.dataDir },
    `Cadre is running at ${config.publicUrl}`,
  );
  // With no BETA_ACCESS_CODES the gate uses a code generated into the data folder; show it once here.
  const accessCode = generatedAccessCode(config);
  if (accessCode) app.log.info(`Access code: ${accessCode}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`Cadre failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
