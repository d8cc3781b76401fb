import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

describe('server process', () => {
  it('exits non-zero naming PORT when PORT is invalid', () => {
    const result = spawnSync(tsx, [main], {
      env: { ...process.env, PORT: 'abc', NODE_ENV: 'test' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/PORT: .*"abc"/);
  });
});
