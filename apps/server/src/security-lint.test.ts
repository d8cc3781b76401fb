import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The security rules `npm run lint` enforces on the real sources with eslint.config.js. C3: every
 * outbound request a tool makes goes through egress.ts (the Flowise lesson: tools that called
 * node-fetch/axios directly skipped the SSRF guard). F1: the server runs no commands and evaluates
 * nothing as code. These prove the rules catch each kind of bypass and leave ordinary code alone,
 * so a weakened rule fails here.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

/** The messages of the rules `ruleIds` matches, for `text` linted as the server file `file`. */
async function lintErrors(text: string, ruleIds: RegExp, file = 'apps/server/src/modules/agents/example.ts') {
  const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => ruleIds.test(m.ruleId ?? '')).map((m) => m.message);
}
const networkErrors = (text: string, file?: string) =>
  lintErrors(text, /no-restricted-(imports|globals|syntax)/, file);
/** Each of `bypasses` is refused by a network rule, with the C3 message. */
async function expectNetworkRefused(bypasses: string[]) {
  for (const text of bypasses) {
    const errors = await networkErrors(text);
    expect(errors.length, text).toBeGreaterThan(0);
    expect(errors.join('\n'), text).toContain('security test C3');
  }
}

describe('C3 no network access around the egress guard', () => {
  it('refuses every kind of bypass in a server module', async () => {
    const bypasses = [
      "import http from 'node:http';\nexport const x = http;",
      "import { request } from 'https';\nexport const x = request;",
      "import { fetch as f } from 'undici';\nexport const x = f;",
      "import axios from 'axios';\nexport const x = axios;",
      "export const x = await import('node-fetch');",
      "export const x = await import('node:net');",
      "export const x = () => fetch('http://example.com');",
    ];
    await expectNetworkRefused(bypasses);
  });

  it('C3: refuses the global fetch and sockets read off the global object, and network modules loaded by require', async () => {
    const bypasses = [
      "export const x = () => globalThis.fetch('http://example.com');",
      "export const x = () => global.fetch('http://example.com');",
      "export const x = () => globalThis['fetch']('http://example.com');",
      'const { fetch: f } = globalThis;\nexport const x = f;',
      "export const x = () => new WebSocket('ws://example.com');",
      "export const x = () => new globalThis.WebSocket('ws://example.com');",
      'export const x = globalThis.WebSocket;',
      "export const x = () => new EventSource('http://example.com');",
      ...['node:https', 'https', 'http', 'net', 'node:tls', 'dgram', 'http2', 'undici'].map(
        (name) =>
          `import { createRequire } from 'node:module';\nexport const x = createRequire(import.meta.url)('${name}');`,
      ),
      "export const x = require('node:https');",
      "export const x = process.getBuiltinModule('node:https');",
      // Forms the rule cannot judge by the module's name are refused whatever they load.
      "import { createRequire } from 'node:module';\nconst load = createRequire(import.meta.url);\nexport const x = load('node:https');",
      "import { createRequire } from 'node:module';\nconst name = 'node:' + 'https';\nexport const x = createRequire(import.meta.url)(name);",
      "import { createRequire as cr } from 'node:module';\nexport const x = cr(import.meta.url)('node:https');",
      "import mod from 'node:module';\nexport const x = mod.createRequire(import.meta.url)('node:https');",
    ];
    await expectNetworkRefused(bypasses);
  });

  it('keeps the OpenTelemetry SDK and its exporters to telemetry/otel-sdk.ts, loaded lazily', async () => {
    const otel = [
      "import { NodeSDK } from '@opentelemetry/sdk-node';\nexport const x = NodeSDK;",
      "import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';\nexport const x = OTLPTraceExporter;",
      "export const x = await import('@opentelemetry/sdk-node');",
    ];
    for (const text of otel)
      expect((await networkErrors(text)).join('\n'), text).toContain('OpenTelemetry SDK');
    const loader = 'apps/server/src/telemetry/otel-sdk.ts';
    expect(await networkErrors("export const x = await import('@opentelemetry/sdk-node');", loader)).toEqual(
      [],
    );
    // Even there it is loaded on demand, never at start-up, and nothing else is let through.
    for (const text of [
      "import { NodeSDK } from '@opentelemetry/sdk-node';\nexport const x = NodeSDK;",
      "export const x = await import('node:https');",
      "export const x = await import('node:child_process');",
    ])
      expect(await networkErrors(text, loader), text).not.toEqual([]);
    expect(
      await networkErrors("import { trace } from '@opentelemetry/api';\nexport const x = trace;"),
    ).toEqual([]);
  });

  it('allows the guard itself, type-only imports and code that only looks alike', async () => {
    expect(
      await networkErrors(
        "import { Agent } from 'undici';\nexport const x = Agent;",
        'apps/server/src/modules/tools/egress.ts',
      ),
    ).toEqual([]);
    const fine = [
      "import type { IncomingMessage } from 'node:http';\nexport type X = IncomingMessage;",
      'export const x = (client: { fetch(u: string): void }) => client.fetch("u");',
      'const prefetch = (x: number) => x;\nexport const y = prefetch(1);',
      "import { z } from 'zod';\nexport const x = z;",
      // createRequire for an ordinary package, as the database driver and the log formatter load theirs.
      "import { createRequire } from 'node:module';\nexport const x = createRequire(import.meta.url)('pg');",
      'export const x = globalThis.structuredClone;',
      "export const x = (s: string) => s.startsWith('https');",
    ];
    for (const text of fine) expect(await networkErrors(text), text).toEqual([]);
  });
});

describe('F1 no code execution in the server', () => {
  const codeRules = /^(no-eval|no-implied-eval|no-new-func|no-restricted-imports|no-restricted-syntax)$/;
  const executions = [
    "export const x = eval('1 + 1');",
    "export const x = new Function('return 1');",
    "export const x = Function('return 1');",
    "setTimeout('globalThis.x = 1', 1);",
    "import { exec } from 'node:child_process';\nexport const x = exec;",
    "import { spawn } from 'child_process';\nexport const x = spawn;",
    "import vm from 'node:vm';\nexport const x = vm;",
    "import { Worker } from 'node:worker_threads';\nexport const x = Worker;",
    "export const x = await import('node:child_process');",
  ];

  it('F1: refuses eval, new Function, string timers, and processes, vm and workers in a server module', async () => {
    for (const text of executions) expect(await lintErrors(text, codeRules), text).not.toEqual([]);
  });

  it('F1: refuses processes, vm and workers in the files exempt from the network rules too', async () => {
    for (const file of ['apps/server/src/modules/tools/egress.ts', 'apps/server/src/http/auth.ts']) {
      for (const text of executions.slice(4)) {
        expect(await lintErrors(text, codeRules, file), `${file}: ${text}`).not.toEqual([]);
      }
    }
  });

  it('F1: the knowledge extraction starts its worker from its own file only, never from a script string', async () => {
    const extract = 'apps/server/src/modules/knowledge/extract.ts';
    const fromFile =
      "import { Worker } from 'node:worker_threads';\nconst url = new URL('./w.ts', import.meta.url);\nexport const w = new Worker(url, { resourceLimits: { maxOldGenerationSizeMb: 64 } });";
    expect(await lintErrors(fromFile, codeRules, extract)).toEqual([]);
    for (const text of [
      "import { Worker } from 'node:worker_threads';\nexport const w = new Worker('process.exit()', { eval: true });",
      "import { Worker } from 'node:worker_threads';\nexport const w = new Worker(`./${'x'}.js`);",
      "import { exec } from 'node:child_process';\nexport const x = exec;",
      "import http from 'node:http';\nexport const x = http;",
    ])
      expect(await lintErrors(text, codeRules, extract), text).not.toEqual([]);
    // Anywhere else, a worker is refused as before.
    expect(await lintErrors(fromFile, codeRules)).not.toEqual([]);
  });

  it('F1: leaves code that only looks alike alone', async () => {
    const fine = [
      'export const evaluate = (x: number) => x + 1;',
      "export const x = JSON.parse('{}');",
      'setTimeout(() => undefined, 1);',
      "import { z } from 'zod';\nexport const x = z.function();",
    ];
    for (const text of fine) expect(await lintErrors(text, codeRules), text).toEqual([]);
  });
});
