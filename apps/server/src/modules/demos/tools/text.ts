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

/** What a name said in a request refers to: the item it names, else the nearest name as a suggestion. */
export interface Resolution<T> {
  found?: T;
  /** Set only when nothing was found: the closest name (fuse.js), to ask about, never to use. */
  closest?: T;
}

const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u)
    .filter(Boolean);

/**
 * The one item `text` names: by id or full name, else the only one whose name has every word said
 * as the start of one of its words ("Brightwater" is Brightwater Clinics). Never a guess: a name
 * that only looks like one ("Stripe" and Logstream) finds nothing, so a tool never answers about a
 * company other than the one asked for; the nearest name comes back as `closest` to suggest.
 */
export function resolveOne<T>(
  text: string,
  rows: readonly T[],
  id: (row: T) => string,
  name: (row: T) => string,
): Resolution<T> {
  const named = namedIn(text, rows, id, name);
  if (named.length > 0) return { found: named.sort((a, b) => name(b).length - name(a).length)[0] };
  const said = wordsOf(text).filter((w) => w.length >= 3 && !FILLER.has(w));
  if (said.length > 0) {
    const starts = rows.filter((row) => {
      const own = wordsOf(name(row));
      return said.every((w) => own.some((o) => o.startsWith(w)));
    });
    if (starts.length === 1) return { found: starts[0] };
  }
  // A typo ("Novpay", "Brightwatr Clinics") is close; another company's name ("Stripe") is not.
  const fuse = new Fuse([...rows], {
    keys: [{ name: 'n', getFn: (r) => name(r) }],
    threshold: 0.25,
    ignoreLocation: true,
  });
  const candidates = [
    text,
    ...text.split(/\s+/).filter((w) => w.length >= 4 && !FILLER.has(w.toLowerCase())),
  ];
  for (const candidate of candidates) {
    const hit = fuse.search(candidate)[0];
    if (hit) return { closest: hit.item };
  }
  return {};
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
