import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_DIR, generateClient } from '../../../scripts/generate-client.ts';

function listFiles(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full, base) : [path.relative(base, full)];
  });
}

describe('generated API client', () => {
  it('matches what the generator produces from the current server (run `npm run generate:client`)', async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-client-'));
    try {
      await generateClient(fresh);
      const expected = listFiles(fresh).sort();
      expect(listFiles(CLIENT_DIR).sort()).toEqual(expected);
      for (const file of expected) {
        const committed = fs.readFileSync(path.join(CLIENT_DIR, file), 'utf8');
        const generated = fs.readFileSync(path.join(fresh, file), 'utf8');
        expect(committed, `${file} is stale: run npm run generate:client`).toBe(generated);
      }
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });
});
