// Lints the OpenAPI document the server serves at /backend/openapi.json with `redocly lint` and
// redocly.yaml. `npm run lint:openapi` prints redocly's report and fails on an error; the
// server-unit test (run by `npm test`, so by CI) asks for JSON and expects no error. Both go
// through `lintOpenApi`, so they cannot disagree.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generateOpenApiDocument } from '../apps/server/src/openapi-document.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Redocly's report on the document, as text (`stylish`) or JSON, and whether it found errors. */
export async function lintOpenApi(format: 'stylish' | 'json' = 'stylish') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-openapi-lint-'));
  try {
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(await generateOpenApiDocument()));
    const args = ['lint', file, `--format=${format}`, `--config=${path.join(ROOT, 'redocly.yaml')}`];
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    // redocly exits 1 when it finds an error: that is a report too, not a failure to run.
    const { stdout, stderr, failed } = await promisify(execFile)(
      path.join(ROOT, 'node_modules/.bin/redocly'),
      args,
      { env },
    ).then(
      (done) => ({ ...done, failed: false }),
      (err: { stdout?: string; stderr?: string }) => ({
        stdout: err.stdout ?? '',
        stderr: err.stderr ?? '',
        failed: true,
      }),
    );
    return { stdout, stderr, failed };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { stdout, stderr, failed } = await lintOpenApi();
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  process.exitCode = failed ? 1 : 0;
}
