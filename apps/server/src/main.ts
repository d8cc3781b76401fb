import v8 from 'node:v8';

/**
 * The process entry (`node apps/server/dist/main.js`, and `npm start` in its own process).
 *
 * Nearly everything a start allocates (the modules' code, the routes, their schemas) lives as long
 * as the process. V8 grows its young generation whenever a scavenge finds that much survived, so
 * by the time the server listens it has grown it from 1 to 16 MiB per semi-space; those pages stay
 * resident while the server idles (about 15 MiB of its idle RSS, docs/benchmarks.md). While
 * starting, the young generation is held at its initial size, which only promotes those long-lived
 * objects to the old generation sooner; once listening, V8's own sizing (a growth factor of 2,
 * V8's default) applies again, so the server under load is sized as before. An operator's own
 * `--semi-space-growth-factor` (NODE_OPTIONS) is left alone.
 */
const GROWTH_FLAG = '--semi-space-growth-factor';
const operatorSetGrowth = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) =>
  arg.includes(GROWTH_FLAG),
);
if (!operatorSetGrowth) v8.setFlagsFromString(`${GROWTH_FLAG}=1`);

try {
  // Loaded only now, so the flag above applies while its modules load.
  const { start } = await import('./start.ts');
  await start();
} catch (err: unknown) {
  process.stderr.write(`Cadre failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
}
if (!operatorSetGrowth) v8.setFlagsFromString(`${GROWTH_FLAG}=2`);
