import { describe, expect, it } from 'vitest';
import { PHRASE_TABLE } from './offline-phrasing/phrase-table.ts';
import { judge, runRow } from './offline-phrasing/run-row.ts';

/** Every row of the offline model's phrase table (offline-phrasing/phrase-table.ts) is one test. */
describe('the offline model understands ordinary phrasing', () => {
  it('has at least 60 rows across every category', () => {
    expect(PHRASE_TABLE.length).toBeGreaterThanOrEqual(60);
    expect(new Set(PHRASE_TABLE.map((r) => r.category)).size).toBe(8);
  });

  it.each(PHRASE_TABLE.map((row) => [row.category, JSON.stringify(row.say), row] as const))(
    '%s: %s',
    async (_category, _say, row) => {
      expect(judge(row, await runRow(row))).toBeUndefined();
    },
  );
});
