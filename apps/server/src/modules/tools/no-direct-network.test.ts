import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * C3: every outbound request a tool makes goes through egress.ts (the Flowise lesson: tools that
 * called node-fetch/axios directly skipped the SSRF guard). `npm run lint` enforces it on the real
 * sources with the rules in eslint.config.js; this proves those rules catch each kind of bypass
 * and leave ordinary code alone, so a weakened rule fails here.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const eslint = new ESLint({ cwd: root });

async function networkErrors(text: string, file = 'apps/server/src/modules/agents/example.ts') {
  const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
  return result!.messages
    .filter((m) => /no-restricted-(imports|globals|syntax)/.test(m.ruleId ?? ''))
    .map((m) => m.message);
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
    for (const text of bypasses) {
      const errors = await networkErrors(text);
      expect(errors.length, text).toBeGreaterThan(0);
      expect(errors.join('\n'), text).toContain('security test C3');
    }
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
    // Even there it is loaded on demand, never at start-up.
    expect(
      await networkErrors(
        "import { NodeSDK } from '@opentelemetry/sdk-node';\nexport const x = NodeSDK;",
        loader,
      ),
    ).not.toEqual([]);
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
    ];
    for (const text of fine) expect(await networkErrors(text), text).toEqual([]);
  });
});
