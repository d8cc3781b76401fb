import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENTS, generateClient, type ClientName } from '../../../scripts/generate-client.ts';

function listFiles(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full, base) : [path.relative(base, full)];
  });
}

describe('generated API clients', () => {
  it.each(Object.keys(CLIENTS) as ClientName[])(
    'the %s client matches what the generator produces from the current server (run `npm run generate:client`)',
    async (name) => {
      const committedDir = CLIENTS[name].dir;
      const fresh = fs.mkdtempSync(path.join(os.tmpdir(), `cadre-${name}-client-`));
      try {
        await generateClient(name, fresh);
        const expected = listFiles(fresh).sort();
        expect(listFiles(committedDir).sort()).toEqual(expected);
        for (const file of expected) {
          const committed = fs.readFileSync(path.join(committedDir, file), 'utf8');
          const generated = fs.readFileSync(path.join(fresh, file), 'utf8');
          expect(committed, `${name}: ${file} is stale: run npm run generate:client`).toBe(generated);
        }
      } finally {
        fs.rmSync(fresh, { recursive: true, force: true });
      }
    },
  );

  it("the chat client's paths are the chat routes, relative to the mount the frame names", () => {
    const types = fs.readFileSync(path.join(CLIENTS.chat.dir, 'types.gen.ts'), 'utf8');
    const urls = [...types.matchAll(/^ {4}url: '([^']+)';$/gm)].map((match) => match[1]);
    expect(urls).toEqual(expect.arrayContaining(['/session', '/threads/{threadId}/messages', '/chat']));
    expect(urls.filter((url) => /^\/(chainlit|demos|api)\//.test(url!))).toEqual([]);
  });
});
