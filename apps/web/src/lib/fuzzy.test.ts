import fc from 'fast-check';
import Fuse from 'fuse.js';
import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFuzzySearch, searchInWorker, useFuzzyFilter, WORKER_MIN_ITEMS } from './fuzzy';
import { answerFuzzyRequests, type MessagePeer } from './fuzzy-match';

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

describe('the search index', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is built once per list with Fuse.createIndex, before the first query, and not per keystroke', () => {
    const createIndex = vi.spyOn(Fuse, 'createIndex');
    const search = createFuzzySearch(items, ['name', 'description']);
    expect(createIndex).toHaveBeenCalledTimes(1);
    expect(createIndex).toHaveBeenCalledWith(['name', 'description'], items);
    for (const query of ['G', 'Go', 'Goo', 'Goog']) search(query);
    expect(createIndex).toHaveBeenCalledTimes(1);
  });
});

/**
 * The page's side of searchInWorker talking to the worker's side (answerFuzzyRequests) over a real
 * MessageChannel, so every message is cloned and transferred as between a page and its worker.
 */
function channelWorker() {
  const { port1, port2 } = new MessageChannel();
  answerFuzzyRequests(port2 as unknown as MessagePeer);
  return Object.assign(port1 as unknown as MessagePeer, {
    terminate: () => {
      port1.close();
      port2.close();
    },
  });
}

function answers<T>(list: readonly T[], keys: readonly (keyof T & string)[], queries: string[]) {
  return new Promise<[string, T[]][]>((resolve) => {
    const got: [string, T[]][] = [];
    const search = searchInWorker(
      list,
      keys,
      (query, matches) => {
        got.push([query, matches]);
        if (query === queries.at(-1)) {
          search.dispose();
          resolve(got);
        }
      },
      { startWorker: channelWorker },
    );
    for (const query of queries) search.search(query);
  });
}

describe('fuzzy search in a worker', () => {
  it('answers as the search in place does, with the items themselves', async () => {
    const got = await answers(items, ['name', 'description'], ['Calender']);
    expect(got).toEqual([['Calender', [items[1]]]]);
    expect(got[0]![1][0]).toBe(items[1]);
  });

  it('searches only the latest query typed while one is being searched', async () => {
    const got = await answers(items, ['name'], ['G', 'Go', 'Goo', 'Hacker']);
    expect(got.map(([query]) => query)).toEqual(['G', 'Hacker']);
    expect(got[1]![1]).toEqual([items[2]]);
  });
});

describe('useFuzzyFilter', () => {
  afterEach(() => vi.unstubAllGlobals());

  const many = Array.from({ length: WORKER_MIN_ITEMS }, (_, i) => ({ name: `Tool ${i}`, description: '' }));

  it('searches a long list in a worker, started once, and shows its answers', async () => {
    let started = 0;
    vi.stubGlobal('Worker', function () {
      started++;
      return channelWorker();
    });
    const { result, rerender } = renderHook(({ query }) => useFuzzyFilter(many, query, ['name']), {
      initialProps: { query: '' },
    });
    expect(result.current).toEqual(many);
    rerender({ query: 'Tool 499' });
    await waitFor(() => expect(result.current[0]).toBe(many[499]));
    expect(result.current).toEqual(createFuzzySearch(many, ['name'])('Tool 499'));
    // A blank query shows every item at once, without asking the worker.
    rerender({ query: ' ' });
    expect(result.current).toEqual(many);
    expect(started).toBe(1);
  });

  it('filters a short list in place', () => {
    vi.stubGlobal('Worker', function () {
      throw new Error('no worker for a short list');
    });
    const { result } = renderHook(() => useFuzzyFilter(items, 'Calender', ['name', 'description']));
    expect(result.current).toEqual([items[1]]);
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

  it('finds in a worker what it finds in place, in the same order', async () => {
    await fc.assert(
      fc.asyncProperty(list, query, async (list, q) => {
        for (const keys of keySets) {
          const inPlace = createFuzzySearch(list, keys)(q);
          const [[, fromWorker]] = (await answers(list, keys, [q])) as [[string, typeof list]];
          expect(fromWorker).toEqual(inPlace);
        }
      }),
      { ...settings, numRuns: 50 },
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
