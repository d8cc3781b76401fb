/**
 * The share of the offline model's phrase table answered right (npm run bench:phrasing). Prints
 * each wrong row and the figure for docs/benchmarks.md ("Offline model phrasing").
 */
import { PHRASE_TABLE } from '../test/offline-phrasing/phrase-table.ts';
import { judge, runRow } from '../test/offline-phrasing/run-row.ts';

const byCategory = new Map<string, { right: number; rows: number }>();
let right = 0;
for (const row of PHRASE_TABLE) {
  const problem = judge(row, await runRow(row));
  const tally = byCategory.get(row.category) ?? { right: 0, rows: 0 };
  tally.rows++;
  if (problem) console.log(`WRONG ${row.category}: ${JSON.stringify(row.say)} — ${problem}`);
  else {
    tally.right++;
    right++;
  }
  byCategory.set(row.category, tally);
}
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
console.log('\n| Category | Rows | Right | Share |\n|---|---:|---:|---:|');
for (const [category, t] of byCategory)
  console.log(`| ${category} | ${t.rows} | ${t.right} | ${pct(t.right, t.rows)} |`);
console.log(
  `| **all** | **${PHRASE_TABLE.length}** | **${right}** | **${pct(right, PHRASE_TABLE.length)}** |`,
);
