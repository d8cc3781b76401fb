/**
 * How well the offline model understands people (npm run bench:phrasing): the share of the labelled
 * set of sentences (test/offline-phrasing/labelled-sentences.json) answered right, by intent, and
 * of the phrase table (phrase-table.ts, also run row by row as unit tests). Prints each wrong row
 * and the tables for docs/benchmarks.md ("Offline model phrasing").
 */
import { LABELLED } from '../test/offline-phrasing/labelled-sentences.ts';
import { PHRASE_TABLE } from '../test/offline-phrasing/phrase-table.ts';
import { judge, runRow } from '../test/offline-phrasing/run-row.ts';

async function score(
  title: string,
  rows: Array<Parameters<typeof runRow>[0] & Parameters<typeof judge>[0]>,
  groupOf: (i: number) => string,
) {
  const groups = new Map<string, { right: number; rows: number }>();
  let right = 0;
  for (const [i, row] of rows.entries()) {
    const problem = judge(row, await runRow(row));
    const tally = groups.get(groupOf(i)) ?? { right: 0, rows: 0 };
    tally.rows++;
    if (problem) console.log(`WRONG ${groupOf(i)}: ${JSON.stringify(row.say)} — ${problem}`);
    else {
      tally.right++;
      right++;
    }
    groups.set(groupOf(i), tally);
  }
  const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
  console.log(`\n${title}\n\n| Group | Rows | Right | Share |\n|---|---:|---:|---:|`);
  for (const [group, t] of groups)
    console.log(`| ${group} | ${t.rows} | ${t.right} | ${pct(t.right, t.rows)} |`);
  console.log(`| **all** | **${rows.length}** | **${right}** | **${pct(right, rows.length)}** |\n`);
}

await score('Labelled sentences, by intent', LABELLED, (i) => LABELLED[i]!.intent);
await score('Phrase table, by category', PHRASE_TABLE, (i) => PHRASE_TABLE[i]!.category);
