import { expect, it } from 'vitest';
import { INTENTS, LABELLED } from './offline-phrasing/labelled-sentences.ts';
import { judge, runRow } from './offline-phrasing/run-row.ts';

/**
 * The offline model on the labelled set of sentences (offline-phrasing/labelled-sentences.json):
 * the share it answers right, printed by intent (npm run bench:phrasing prints each wrong row).
 * The floor is well below the measured share (docs/benchmarks.md), so it fails on a real
 * regression of the parser, not on one sentence.
 */
const FLOOR = 0.8;

it(`answers at least ${FLOOR * 100} % of the ${LABELLED.length} labelled sentences right`, async () => {
  expect(LABELLED.length).toBeGreaterThanOrEqual(300);
  const right = new Map<string, number>();
  for (const row of LABELLED)
    if (judge(row, await runRow(row)) === undefined) right.set(row.intent, (right.get(row.intent) ?? 0) + 1);
  const share = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;
  const lines = INTENTS.map((intent) => {
    const rows = LABELLED.filter((r) => r.intent === intent).length;
    return `${intent}: ${right.get(intent) ?? 0}/${rows} (${share(right.get(intent) ?? 0, rows)})`;
  });
  const total = [...right.values()].reduce((a, b) => a + b, 0);
  console.log(`Offline model, labelled sentences: ${share(total, LABELLED.length)}\n${lines.join('\n')}`);
  expect(total / LABELLED.length).toBeGreaterThanOrEqual(FLOOR);
});
