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

describe('fuzzy search equals Fuse on random data', () => {
  it('returns what Fuse returns for short and long queries over random lists', async () => {
    const { default: Fuse } = await import('fuse.js');
    const fc = await import('fast-check');
    // A small alphabet (with upper case, spaces, an accented and a multi-byte lower-case letter)
    // makes repeats, exact whole-text matches and near misses common.
    const char = fc.constantFrom(...'abcAB e_\u00e9\u0130'.split(''));
    const text = fc.oneof(
      fc.string({ unit: char, maxLength: 60 }),
      fc.constantFrom('', ' ', 'a', 'ab', 'Ab e', 'send message', 'A'.repeat(45) + 'ab'),
    );
    const item = fc.record({ name: text, description: text });
    const query = fc.oneof(
      fc.string({ unit: char, minLength: 1, maxLength: 3 }),
      fc.string({ unit: char, minLength: 4, maxLength: 12 }),
    );
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 40 }),
        fc.array(query, { minLength: 1, maxLength: 6 }),
        (list, queries) => {
          for (const keys of [['name', 'description'], ['name']]) {
            const search = createFuzzySearch(list, keys);
            const plain = new Fuse(list, { keys, threshold: FUZZY_THRESHOLD });
            for (const q of queries) {
              expect(search(q)).toEqual(plain.search(q.trim()).map((r) => r.item));
            }
          }
        },
      ),
      { numRuns: 300, seed: 20261121 },
    );
  });
});
