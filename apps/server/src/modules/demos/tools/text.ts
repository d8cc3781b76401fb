import Fuse from 'fuse.js';

/** Helpers shared by the demo tools: free-text matching and markdown output. */

const FILLER = new Set(
  'a an and the to of for in on at by with from into about please can could would you me my i is are be it this that what how do does some any all using use show find search list look up get give tell want need which who whose companies company startup startups lead leads firm firms with over under more than less high low best top'.split(
    ' ',
  ),
);

/**
 * Keyword filter for a free-text `query`: words that match nothing in the whole dataset are filler
 * ("show me", "with strong traction") and are ignored; every remaining word must match the row.
 */
export function keywordFilter<T>(
  query: string | undefined,
  rows: readonly T[],
  text: (row: T) => string,
): T[] {
  const words = (query ?? '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u)
    .filter((w) => w.length >= 2 && !FILLER.has(w));
  if (words.length === 0) return [...rows];
  const haystacks = rows.map((row) => text(row).toLowerCase());
  const useful = words.filter((w) => haystacks.some((h) => h.includes(w)));
  return rows.filter((_, i) => useful.every((w) => haystacks[i]!.includes(w)));
}

/** Every item named in `text`, by id or by name (names longest first so "Novapay" does not hide others). */
export function namedIn<T>(
  text: string,
  rows: readonly T[],
  id: (row: T) => string,
  name: (row: T) => string,
): T[] {
  const lower = text.toLowerCase();
  return rows.filter(
    (row) => lower.includes(id(row).toLowerCase()) || lower.includes(name(row).toLowerCase()),
  );
}

/** The one item `text` refers to: by id or exact name first, then the closest name (fuse.js). */
export function resolveOne<T>(
  text: string,
  rows: readonly T[],
  id: (row: T) => string,
  name: (row: T) => string,
) {
  const named = namedIn(text, rows, id, name);
  if (named.length > 0) return named.sort((a, b) => name(b).length - name(a).length)[0];
  const fuse = new Fuse([...rows], {
    keys: [{ name: 'n', getFn: (r) => name(r) }],
    threshold: 0.4,
    ignoreLocation: true,
  });
  const words = text.split(/\s+/).filter((w) => w.length >= 4 && !FILLER.has(w.toLowerCase()));
  for (const candidate of [text, ...words]) {
    const hit = fuse.search(candidate)[0];
    if (hit) return hit.item;
  }
  return undefined;
}

export const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
export const musd = (m: number) => `$${m >= 10 ? m.toFixed(0) : m.toFixed(1)}M`;

export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cell = (v: string | number) => String(v).replace(/\|/g, '/').replace(/\n/g, ' ');
  return [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}
