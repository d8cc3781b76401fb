import { describe, expect, it } from 'vitest';
import { derivedStarters } from './starters.ts';

const schema = { type: 'object' as const, properties: {}, required: [] };

describe('derived starters', () => {
  it("are the offline model's tested requests for well-known tools, capitalised, at most four", () => {
    const tools = ['multiply', 'add', 'web_search', 'create_event', 'list_notes'].map((name) => ({
      name,
      inputSchema: schema,
    }));
    expect(derivedStarters(tools)).toEqual([
      '12 times 7',
      'Add 9 and 33',
      'Search the web for trail running shoes',
      'Remind me tomorrow at 3pm to call Sam',
    ]);
  });

  it('ask what the agent can do when it has no tools', () => {
    expect(derivedStarters([])).toEqual(['What can you do?']);
  });
});
