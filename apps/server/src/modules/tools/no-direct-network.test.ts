import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * C3: every outbound request a tool makes goes through egress.ts (the Flowise lesson: tools that
 * called node-fetch/axios directly skipped the SSRF guard). This scans the server's sources.
 */
const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Files allowed to use a network module, each with the reason. */
const EXCEPTIONS: Record<string, string> = {
  'modules/tools/egress.ts': 'the egress guard itself',
  'modules/tools/ip-ranges.ts': 'uses node:net only for isIP() to classify addresses',
  'http/auth.ts': "jose's createRemoteJWKSet fetches the configured issuer's keys (operator-set URL)",
};

const NETWORK_MODULES = [
  'http',
  'https',
  'net',
  'tls',
  'dgram',
  'http2',
  'undici',
  'axios',
  'node-fetch',
  'got',
  'ky',
  '@composio/core',
];

const importPattern = new RegExp(
  String.raw`(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)['"](?:node:)?(${NETWORK_MODULES.map((m) =>
    m.replace(/[/.@-]/g, '\\$&'),
  ).join('|')})(?:/[^'"]*)?['"]`,
);
const fetchPattern = /(?<![.\w$])fetch\s*\(/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

// Type-only imports carry no code, so they cannot open a connection.
const stripComments = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1')
    .replace(/^\s*import\s+type\s[^;]*;/gm, '');

export function findViolations(files: { name: string; text: string }[]) {
  const violations: string[] = [];
  for (const { name, text } of files) {
    if (EXCEPTIONS[name]) continue;
    const code = stripComments(text);
    const imported = importPattern.exec(code);
    if (imported) violations.push(`${name} imports ${imported[1]}`);
    if (fetchPattern.test(code)) violations.push(`${name} calls fetch() directly`);
  }
  return violations;
}

describe('C3 no network access around the egress guard', () => {
  it('finds no file other than the guard that imports a network module or calls fetch', () => {
    const files = sourceFiles(srcDir).map((file) => ({
      name: path.relative(srcDir, file).split(path.sep).join('/'),
      text: fs.readFileSync(file, 'utf8'),
    }));
    expect(files.some((f) => f.name === 'modules/tools/egress.ts')).toBe(true);
    expect(findViolations(files)).toEqual([]);
  });

  it('would catch each kind of bypass', () => {
    const bad = [
      "import http from 'node:http';",
      "import { request } from 'https';",
      "import { fetch } from 'undici';",
      "const axios = require('axios');",
      "const f = await import('node-fetch');",
      "import { Composio } from '@composio/core';",
      'const res = await fetch(url);',
      'const res = await fetch (url);',
    ];
    for (const text of bad) expect(findViolations([{ name: 'modules/x.ts', text }]), text).toHaveLength(1);
    const fine = [
      'await client.fetch(url);',
      'const prefetch = (x) => x; prefetch(1);',
      "// fetch('x') in a comment",
      "import { z } from 'zod';",
      "import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';",
    ];
    for (const text of fine) expect(findViolations([{ name: 'modules/x.ts', text }]), text).toEqual([]);
  });
});
