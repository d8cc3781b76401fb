import { describe, expect, it } from 'vitest';
import { PHRASE_TABLE } from './offline-phrasing/phrase-table.ts';
import { judge, runRow } from './offline-phrasing/run-row.ts';
import { EVERY_SERVICE } from './offline-phrasing/toolkits.ts';
import { decideTurn, toolList } from '../src/modules/chat/llm/offline-intents.ts';

/** Every row of the offline model's phrase table (offline-phrasing/phrase-table.ts) is one test. */
describe('the offline model understands ordinary phrasing', () => {
  it('has at least 60 rows across every category', () => {
    expect(PHRASE_TABLE.length).toBeGreaterThanOrEqual(60);
    expect(new Set(PHRASE_TABLE.map((r) => r.category)).size).toBe(9);
  });

  it.each(PHRASE_TABLE.map((row) => [row.category, JSON.stringify(row.say), row] as const))(
    '%s: %s',
    async (_category, _say, row) => {
      expect(judge(row, await runRow(row))).toBeUndefined();
    },
  );
});

describe('the examples the offline model offers', () => {
  const clock = { now: new Date('2026-03-09T10:00:00Z'), timeZone: 'Europe/Paris' };
  const examples = EVERY_SERVICE.flatMap(([service, tools]) =>
    toolList(tools)
      .split('\n')
      .map((line) => /^- \*\*([\w-]+)\*\*.* Try: “(.*)”$/.exec(line)!)
      .map((m) => [service, m[1]!, m[2]!, tools] as const),
  );

  // The whole Calculator computes every example with Evaluate; every other example runs its own tool.
  it.each(examples)('%s: %s — “%s” runs it', (service, tool, example, tools) => {
    const decision = decideTurn({ message: example, agentName: 'Helper', clock }, tools);
    expect('toolCall' in decision && decision.toolCall.toolName).toBe(
      service === 'Calculator' ? 'evaluate' : tool,
    );
  });
});
