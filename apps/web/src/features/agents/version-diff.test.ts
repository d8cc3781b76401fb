import { describe, expect, it } from 'vitest';
import type { AgentSnapshot } from './api/agents-api';
import { diffSnapshots, isEmptyDiff } from './version-diff';

const tool = (id: number, display_name: string) => ({
  id,
  name: display_name.toUpperCase(),
  display_name,
  app_name: 'Calculator',
  provider: 'builtin',
  service_key: 'calculator',
});
const file = (id: string, name: string) => ({
  id,
  name,
  media_type: 'text/markdown',
  size_bytes: 10,
  sha256: 'x',
});
const base: AgentSnapshot = {
  name: 'Bookkeeper',
  description: 'Does sums',
  guidelines: null,
  icon: null,
  color: null,
  starters: [],
  model_id: null,
  temperature: null,
  tools: [tool(1, 'Add'), tool(2, 'Multiply')],
  files: [file('a', 'handbook.md')],
};

describe('diffSnapshots', () => {
  it('finds nothing between equal versions', () => {
    expect(isEmptyDiff(diffSnapshots(base, structuredClone(base)))).toBe(true);
  });

  it('lists a changed model and temperature, blank for the defaults', () => {
    const diff = diffSnapshots(base, { ...base, model_id: 'fast', temperature: 0.7 });
    expect(diff.fields).toEqual([
      { field: 'Model', before: '', after: 'fast' },
      { field: 'Temperature', before: '', after: '0.7' },
    ]);
  });

  it('lists changed fields with before and after, and tools added and removed', () => {
    const diff = diffSnapshots(base, {
      ...base,
      name: 'Accountant',
      guidelines: 'Be exact',
      icon: '🧮',
      color: 'teal',
      starters: ['What is 12 × 7?'],
      tools: [tool(2, 'Multiply'), tool(3, 'Divide')],
    });
    expect(diff).toEqual({
      fields: [
        { field: 'Name', before: 'Bookkeeper', after: 'Accountant' },
        { field: 'Guidelines', before: '', after: 'Be exact' },
        { field: 'Icon', before: '', after: '🧮' },
        { field: 'Colour', before: '', after: 'teal' },
        { field: 'Starters', before: '', after: 'What is 12 × 7?' },
      ],
      toolsAdded: ['Divide (Calculator)'],
      toolsRemoved: ['Add (Calculator)'],
      toolsReordered: false,
      filesAdded: [],
      filesRemoved: [],
    });
  });

  it('notices the same tools in another order', () => {
    const diff = diffSnapshots(base, { ...base, tools: [tool(2, 'Multiply'), tool(1, 'Add')] });
    expect(diff.toolsReordered).toBe(true);
    expect(isEmptyDiff(diff)).toBe(false);
  });

  it('lists the files added and removed by name', () => {
    const diff = diffSnapshots(base, { ...base, files: [file('b', 'policy.pdf')] });
    expect(diff).toMatchObject({ filesAdded: ['policy.pdf'], filesRemoved: ['handbook.md'], fields: [] });
    expect(isEmptyDiff(diff)).toBe(false);
  });
});
