import { describe, expect, it } from 'vitest';
import { PHRASE_TABLE } from './offline-phrasing/phrase-table.ts';
import { converse, judge, runRow } from './offline-phrasing/run-row.ts';
import { EVERY_SERVICE } from './offline-phrasing/toolkits.ts';

/** Every row of the offline model's phrase table (offline-phrasing/phrase-table.ts) is one test. */
describe('the offline model understands ordinary phrasing', () => {
  it('has at least 60 rows across every category', () => {
    expect(PHRASE_TABLE.length).toBeGreaterThanOrEqual(60);
    expect(new Set(PHRASE_TABLE.map((r) => r.category)).size).toBe(11);
  });

  it.each(PHRASE_TABLE.map((row) => [row.category, JSON.stringify(row.say), row] as const))(
    '%s: %s',
    async (_category, _say, row) => {
      expect(judge(row, await runRow(row))).toBeUndefined();
    },
  );
});

/** Each service's tools as the model's answer to "what can you do?" lists them, with its example request. */
const offered = await Promise.all(
  EVERY_SERVICE.map(async ([service, tools]) => {
    const { text } = await converse(['what can you do?'], tools);
    const lines = text.split('\n').filter((line) => line.startsWith('- **'));
    return { service, tools, lines };
  }),
);

describe('the examples the offline model offers (the starters of an empty chat)', () => {
  it.each(offered)('$service: its answer to "what can you do?" lists every tool', ({ tools, lines }) => {
    expect(lines.map((line) => /^- \*\*([\w-]+)\*\*/.exec(line)?.[1])).toEqual(tools.map((t) => t.name));
  });

  const examples = offered.flatMap(({ service, tools, lines }) =>
    lines
      .map((line) => [line, /^- \*\*([\w-]+)\*\*.*? Try: “(.*)”$/.exec(line)] as const)
      .map(([line, m]) => [service, m?.[1] ?? line, m?.[2] ?? '', tools] as const),
  );

  // Every tool of every built-in service and demo has one: a question with real values, which runs
  // that tool (the whole Calculator computes with Evaluate).
  it.each(examples)('%s: %s — “%s” runs it', async (service, tool, example, tools) => {
    expect(example).not.toBe('');
    const { call } = await converse([example], tools);
    expect(call?.toolName).toBe(service === 'Calculator' ? 'evaluate' : tool);
  });

  // ...and its own row in the phrase table, which checks the arguments taken from it.
  it.each(examples.filter(([service]) => service !== 'Calculator'))(
    '%s: %s — “%s” is a row of the phrase table',
    (_service, tool, example) => {
      const said = (row: (typeof PHRASE_TABLE)[number]) => String(row.say).toLowerCase();
      expect(
        PHRASE_TABLE.find((row) => said(row) === example.toLowerCase() && row.call === tool),
      ).toBeDefined();
    },
  );
});
