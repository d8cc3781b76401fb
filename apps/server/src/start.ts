import fs from 'node:fs';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createLifecycle } from './http/lifecycle.ts';
import { logsAsText } from './http/logging.ts';
import { formatBanner, startupReport } from './startup-report.ts';
import { startTracing, type StartedTracing } from './telemetry/index.ts';

/** Time past SHUTDOWN_TIMEOUT_MS for ended runs to save before the process is stopped anyway. */
const SHUTDOWN_MARGIN_MS = 5_000;

/** The server's start (run by `main.ts`): configuration, database, migrations, listen, graceful shutdown. */
export async function start() {
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
  // Before the database opens, so its statements are traced too; not loaded at all when unset.
  let tracing: StartedTracing | undefined;
  if (config.telemetry.otlpEndpoint)
    tracing = await startTracing({ serviceName: config.telemetry.serviceName });
  const db = openDatabase(config.database);
  const applied = await migrateToLatest(db);
  const lifecycle = createLifecycle();
  const app = await buildApp({ config, db, lifecycle });
  if (applied.length) app.log.info({ migrations: applied }, 'database migrated');

  // R12: a rejected promise nobody awaited is a bug to log and count (the count is on every such
  // line and in /health/live), not a reason to cut every open stream on this instance. An uncaught
  // exception still ends the process (gracefully).
  process.on('unhandledRejection', (reason) => {
    const unhandledRejections = lifecycle.countUnhandledRejection();
    app.log.error({ err: reason, unhandledRejections }, 'unhandled promise rejection');
  });

  closeWithGrace(
    {
      delay: config.shutdownDrainDelayMs + config.shutdownTimeoutMs + SHUTDOWN_MARGIN_MS,
      skip: ['unhandledRejection'],
      logger: { error: (message: unknown) => app.log.error(String(message)) },
    },
    async ({ signal, err }) => {
      if (err) app.log.error({ err }, 'shutting down after an uncaught exception');
      else app.log.info({ signal }, 'shutting down: draining, then finishing in-flight requests');
      // Readiness turns 503 and connections close after their response; runs get until
      // SHUTDOWN_TIMEOUT_MS to finish, then end as interrupted with what they streamed saved.
      await lifecycle.beginDraining();
      // A deploy's SIGTERM: go on serving until the load balancer has seen readiness fail and
      // stopped routing here, so no request meets a closing listener. Ctrl-C need not wait.
      if (signal === 'SIGTERM' && config.shutdownDrainDelayMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainDelayMs));
      }
      // Stops accepting connections, waits for in-flight requests, runs onClose hooks.
      await app.close();
      await db.close();
      // The spans still buffered go out before the process ends.
      await tracing?.shutdown();
    },
  );

  // Fastify logs a URL for every interface address, but sign-in works only at PUBLIC_URL, so its
  // lines are held back and the report below names the one address to open.
  const level = app.log.level;
  app.log.level = 'warn';
  try {
    await app.listen({ host: config.host, port: config.port });
  } finally {
    app.log.level = level;
  }
  const address = app.server.address();
  const listeningOn =
    address && typeof address === 'object'
      ? `${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
      : undefined;
  const report = startupReport(config, await app.generatedAccessCode(), listeningOn);
  if (logsAsText(config)) process.stdout.write(formatBanner(report));
  else {
    app.log.info(report, `Cadre is running at ${report.url}`);
    // Its own line too, for whoever looks for it in a log collector (and the cluster tests).
    app.log.info(`Access code: ${report.accessCode}`);
  }
}
