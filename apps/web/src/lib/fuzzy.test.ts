import fc from 'fast-check';
import Fuse from 'fuse.js';
import { describe, expect, it } from 'vitest';
import { createFuzzySearch } from './fuzzy';

const items = [
  { name: 'Gmail', description: 'Send and read mail' },
  { name: 'Google Calendar', description: 'Events and meetings' },
  { name: 'Hacker News', description: 'Top stories' },
];

describe('fuzzy search', () => {
  it('returns every item, in order, for a blank query', () => {
    const search = createFuzzySearch(items, ['name', 'description']);
    expect(search('   ').map((i) => i.name)).toEqual(['Gmail', 'Google Calendar', 'Hacker News']);
  });

  it('tolerates a typo within the threshold and searches the description too', () => {
    const search = createFuzzySearch(items, ['name', 'description']);
    expect(search('Calender').map((i) => i.name)).toEqual(['Google Calendar']);
    expect(search('stories').map((i) => i.name)).toEqual(['Hacker News']);
  });

  it('lets through 3 wrong letters in 10 and not 4: the threshold of spec section 9 is 0.3', () => {
    const letters = [{ name: 'abcdefghij' }];
    const search = createFuzzySearch(letters, ['name']);
    expect(search('abcdefgxyz')).toEqual(letters);
    expect(search('abcdefwxyz')).toEqual([]);
    // Just under 0.3, three wrong letters are too many: the default sits exactly at 0.3.
    expect(createFuzzySearch(letters, ['name'], 0.29)('abcdefgxyz')).toEqual([]);
  });

  it('drops matches that are further away than the threshold', () => {
    const search = createFuzzySearch(items, ['name', 'description']);
    expect(search('xqzvw')).toEqual([]);
    expect(createFuzzySearch(items, ['name'])('Hckr Nws')).toEqual([]);
    expect(createFuzzySearch(items, ['name'], 0.6)('Hckr Nws').map((i) => i.name)).toEqual(['Hacker News']);
  });

  it('only searches the given fields', () => {
    const byName = createFuzzySearch(items, ['name']);
    expect(byName('meetings')).toEqual([]);
  });
});

describe('fuzzy search on random lists', () => {
  // A small alphabet (with upper case, spaces, an accented and a multi-byte lower-case letter)
  // makes repeats, exact whole-text matches and near misses common.
  const char = fc.constantFrom(...'abcAB e_\u00e9\u0130'.split(''));
  const text = fc.oneof(
    fc.string({ unit: char, maxLength: 60 }),
    fc.constantFrom('', ' ', 'a', 'ab', 'Ab e', 'send message', 'A'.repeat(45) + 'ab'),
  );
  const list = fc.array(fc.record({ name: text, description: text }), { maxLength: 40 });
  const query = fc.string({ unit: char, minLength: 1, maxLength: 12 });
  const keySets = [['name', 'description'], ['name']] as const;
  const fields = (item: { name: string; description: string }, keys: readonly string[]) =>
    keys.map((key) => item[key as 'name' | 'description']);
  const settings = { numRuns: 200, seed: 20261121 };

  it('never misses an item whose searched text starts with the query', () => {
    fc.assert(
      fc.property(list, query, (list, q) => {
        const pattern = q.trim().toLowerCase();
        for (const keys of keySets) {
          const found = new Set(createFuzzySearch(list, keys)(q));
          for (const item of list) {
            if (pattern && fields(item, keys).some((field) => field.toLowerCase().startsWith(pattern))) {
              expect(found.has(item)).toBe(true);
            }
          }
        }
      }),
      settings,
    );
  });

  it('never returns an item whose searched text shares no letter with the query', () => {
    fc.assert(
      fc.property(list, query, (list, q) => {
        // A blank query returns every item (tested above).
        if (!q.trim()) return;
        const letters = new Set(q.trim().toLowerCase());
        for (const keys of keySets) {
          for (const item of createFuzzySearch(list, keys)(q)) {
            const text = fields(item, keys).join('').toLowerCase();
            expect([...letters].some((letter) => text.includes(letter))).toBe(true);
          }
        }
      }),
      settings,
    );
  });

  it('ranks the matches as Fuse does with the threshold 0.3, on the trimmed query', () => {
    fc.assert(
      fc.property(list, query, (list, q) => {
        for (const keys of keySets) {
          const fuse = new Fuse(list, { keys: [...keys], threshold: 0.3 });
          const expected = q.trim() ? fuse.search(q.trim()).map((r) => r.item) : list;
          expect(createFuzzySearch(list, keys)(q)).toEqual(expected);
        }
      }),
      settings,
    );
  });
});
