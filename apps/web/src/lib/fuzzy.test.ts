import { describe, expect, it } from 'vitest';
import { createFuzzySearch, FUZZY_THRESHOLD } from './fuzzy';

const items = [
  { name: 'Gmail', description: 'Send and read mail' },
  { name: 'Google Calendar', description: 'Events and meetings' },
  { name: 'Hacker News', description: 'Top stories' },
];

describe('fuzzy search', () => {
  it('uses the threshold 0.3 of spec section 9', () => {
    expect(FUZZY_THRESHOLD).toBe(0.3);
  });

  it('returns every item, in order, for a blank query', () => {
    const search = createFuzzySearch(items, ['name', 'description']);
    expect(search('   ').map((i) => i.name)).toEqual(['Gmail', 'Google Calendar', 'Hacker News']);
  });

  it('tolerates a typo within the threshold and searches the description too', () => {
    const search = createFuzzySearch(items, ['name', 'description']);
    expect(search('Calender').map((i) => i.name)).toEqual(['Google Calendar']);
    expect(search('stories').map((i) => i.name)).toEqual(['Hacker News']);
  });

  it('drops matches that are further away than the threshold', () => {
    const search = createFuzzySearch(items, ['name', 'description']);
    expect(search('xqzvw')).toEqual([]);
    // A looser threshold finds what 0.3 rejects, so the threshold is what decides.
    expect(createFuzzySearch(items, ['name'], 0.3)('Hckr Nws')).toEqual([]);
    expect(createFuzzySearch(items, ['name'], 0.6)('Hckr Nws').map((i) => i.name)).toEqual(['Hacker News']);
  });

  it('only searches the given fields', () => {
    const byName = createFuzzySearch(items, ['name']);
    expect(byName('meetings')).toEqual([]);
  });
});

describe('fuzzy pre-filter', () => {
  it('returns exactly what Fuse alone returns, in the same order', async () => {
    const { default: Fuse } = await import('fuse.js');
    const words = [
      'send',
      'message',
      'calendar',
      'event',
      'github',
      'issue',
      'search',
      'video',
      'place',
      'mail',
    ];
    const list = Array.from({ length: 400 }, (_, i) => ({
      name: `${words[i % 10]}_${words[(i * 7) % 10]}_${i}`,
      description: `${words[(i * 3) % 10]} the ${words[(i * 11) % 10]} number ${i}`,
    }));
    const search = createFuzzySearch(list, ['name', 'description']);
    const plain = new Fuse(list, { keys: ['name', 'description'], threshold: 0.3 });
    for (const q of [
      's',
      'sen',
      'send mesage',
      'calender',
      'gihub isue',
      'vdeo',
      'plce',
      'mail 12',
      'zzz',
      'number 3',
    ]) {
      expect(search(q)).toEqual(plain.search(q).map((r) => r.item));
    }
  });
});
