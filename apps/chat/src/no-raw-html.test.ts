import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** D4: raw HTML is never rendered in the chat frame or the web app; no unsafe iframe sandbox either. */
const appsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(ts|tsx|js|jsx)$/.test(entry.name) ? [full] : [];
  });
}

const files = [...sourceFiles(path.join(appsDir, 'chat/src')), ...sourceFiles(path.join(appsDir, 'web/src'))];
// This file names the forbidden patterns in order to look for them.
const self = fileURLToPath(import.meta.url);
const FORBIDDEN = [
  'dangerously' + 'SetInnerHTML',
  '.inner' + 'HTML =',
  'outer' + 'HTML =',
  'insertAdjacent' + 'HTML',
];

describe('code rule D4', () => {
  it('scans the chat frame and web app sources', () => {
    expect(files.some((f) => f.endsWith(path.join('components', 'message-markdown.tsx')))).toBe(true);
  });

  it('never renders raw HTML', () => {
    const offenders = files
      .filter((f) => f !== self)
      .flatMap((f) => {
        const text = fs.readFileSync(f, 'utf8');
        return FORBIDDEN.filter((p) => text.includes(p)).map((p) => `${path.relative(appsDir, f)}: ${p}`);
      });
    expect(offenders).toEqual([]);
  });

  it('never sandboxes an iframe with both allow-scripts and allow-same-origin', () => {
    const offenders = files.filter((f) => {
      const text = fs.readFileSync(f, 'utf8');
      return /sandbox=[^>]*allow-scripts[^>]*allow-same-origin|sandbox=[^>]*allow-same-origin[^>]*allow-scripts/.test(
        text,
      );
    });
    expect(offenders).toEqual([]);
  });
});
