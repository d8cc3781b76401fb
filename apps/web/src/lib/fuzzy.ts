import Fuse from 'fuse.js';
import { useMemo } from 'react';

/** The fuzzy-search threshold for services, agents and tools (spec section 9). */
export const FUZZY_THRESHOLD = 0.3;

/** Fuse scores a match as errors / pattern length (plus a distance penalty), so this many errors at most pass. */
export const maxErrors = (patternLength: number, threshold: number) => Math.floor(patternLength * threshold);

/** Splits a pattern into `count` contiguous pieces of nearly equal length. */
export function splitPattern(pattern: string, count: number): string[] {
  const pieces: string[] = [];
  const size = pattern.length / count;
  for (let i = 0; i < count; i++)
    pieces.push(pattern.slice(Math.round(i * size), Math.round((i + 1) * size)));
  return pieces.filter(Boolean);
}

// Fuse's bitap works on at most 32 characters at a time; longer patterns skip the pre-filter.
const BITAP_MAX = 32;

// Fuse's defaults for where a match may sit: a match's score is errors / pattern length plus its
// distance from LOCATION divided by DISTANCE. The options below never change them.
const LOCATION = 0;
const DISTANCE = 100;

/**
 * Builds the search once per list; each query then returns the items Fuse matches with the given
 * keys and threshold, best first. The result is exactly what Fuse alone returns (fuzzy.test.ts
 * compares them over random lists and queries), in far less time on long lists:
 *
 * - Short patterns (one error would already cost more than the threshold: 1 to 3 characters at
 *   0.3) match only unchanged. For them Fuse's bitap reduces to the first occurrence of the
 *   lowercased pattern in the lowercased text, scored at its position / DISTANCE (at least 0.001;
 *   0 when the whole text is the pattern), and passing when that score is within the threshold.
 *   Those scores are computed here directly and combined and sorted with Fuse's own formulas.
 * - Longer patterns drop the items that cannot match before Fuse runs: a text within k edits of
 *   the pattern contains at least one of k + 1 disjoint pieces of it unchanged (pigeonhole), k is
 *   at most threshold x pattern length, and bitap only reads the first threshold x DISTANCE +
 *   pattern length characters of a text, so the piece has to lie there. The q-gram lemma then
 *   drops most of the rest (see below).
 */
export function createFuzzySearch<T>(
  items: readonly T[],
  keys: readonly string[],
  threshold = FUZZY_THRESHOLD,
) {
  const options = { keys: [...keys], threshold };
  const index = Fuse.createIndex(options.keys, items);
  const fuse = new Fuse(items, options, index);
  const { keys: indexKeys, records } = index.toJSON();
  // What Fuse searches: each record's text per key, lowercased as Fuse does, with its field norm.
  const fields = records.map((record) =>
    indexKeys.map((_, k) => {
      const entry = (record.$ as Record<number, { v: string; n: number } | undefined>)[k];
      return entry && typeof entry.v === 'string'
        ? { text: entry.v.toLowerCase(), norm: entry.n }
        : undefined;
    }),
  );
  // Fuse gives each of n keys the weight 1 / n (keys here carry no weights of their own).
  const weight = 1 / indexKeys.length;
  // Array values (one text per element) are scored differently; only plain strings take the exact path.
  const plainStrings = records.every((record) =>
    Object.values(record.$ as Record<number, unknown>).every((entry) => !Array.isArray(entry)),
  );

  const exactSearch = (pattern: string): T[] => {
    const scored: { idx: number; score: number }[] = [];
    for (let r = 0; r < records.length; r++) {
      let total = 1;
      let matched = false;
      for (const field of fields[r]!) {
        if (!field) continue;
        let score: number;
        if (field.text === pattern) score = 0;
        else {
          const at = field.text.indexOf(pattern);
          if (at < 0) continue;
          const proximity = 0 / pattern.length + Math.abs(LOCATION - at) / DISTANCE;
          if (proximity > threshold) continue;
          score = Math.max(0.001, proximity);
        }
        matched = true;
        total *= Math.pow(score === 0 && weight ? Number.EPSILON : score, (weight || 1) * field.norm);
      }
      if (matched) scored.push({ idx: records[r]!.i, score: total });
    }
    // Fuse's default sort: by score, then by position in the list.
    scored.sort((a, b) => (a.score === b.score ? (a.idx < b.idx ? -1 : 1) : a.score < b.score ? -1 : 1));
    return scored.map((s) => items[s.idx]!);
  };

  return (query: string): T[] => {
    const pattern = query.trim();
    if (!pattern) return [...items];
    const lower = pattern.toLowerCase();
    if (lower.length > BITAP_MAX) return fuse.search(pattern).map((r) => r.item);
    if (plainStrings && lower.length === pattern.length && 1 / lower.length > threshold) {
      return exactSearch(lower);
    }
    const pieces = splitPattern(lower, maxErrors(lower.length, threshold) + 1);
    // Bitap reads no further than this into a text (see above); one more character for safety.
    const window = Math.ceil(threshold * DISTANCE) + LOCATION + lower.length + 1;
    // Lengths count the lowercased pattern, as Fuse does (lowercasing can lengthen a text).
    // A second filter, the q-gram lemma: each edit spoils at most 2 of the pattern's
    // (length - 1) two-letter grams, so a text within k edits holds at least (length - 1 - 2k) of
    // them, counted by their position in the pattern, in the window bitap reads.
    const grams: string[] = [];
    for (let i = 0; i + 2 <= lower.length; i++) grams.push(lower.slice(i, i + 2));
    const needed = grams.length - 2 * maxErrors(lower.length, threshold);
    const inWindow = (text: string, piece: string) => {
      const at = text.indexOf(piece);
      return at >= 0 && at + piece.length <= window;
    };
    const mayMatch = (text: string) => {
      if (!pieces.some((piece) => inWindow(text, piece))) return false;
      if (needed <= 1) return true;
      let found = 0;
      for (let g = 0; g < grams.length; g++) {
        if (inWindow(text, grams[g]!) && ++found >= needed) return true;
        // Even if every remaining gram were found, the count would stay short.
        if (found + grams.length - g - 1 < needed) return false;
      }
      return false;
    };
    // The candidates keep their place in the full index, so Fuse ranks them exactly as it would.
    const candidates = records.filter((_, r) =>
      fields[r]!.some((field) => field !== undefined && mayMatch(field.text)),
    );
    if (candidates.length === records.length) return fuse.search(pattern).map((r) => r.item);
    const subset = Fuse.parseIndex<T>({ keys: indexKeys, records: candidates });
    return new Fuse(items, options, subset).search(pattern).map((r) => r.item);
  };
}

/** The items matching `query` (all of them when the query is blank), best match first. */
export function useFuzzyFilter<T>(
  items: readonly T[] | undefined,
  query: string,
  keys: readonly string[],
  threshold = FUZZY_THRESHOLD,
): T[] {
  // The keys are constants of each screen; joining them keeps the search stable across renders.
  const keyId = keys.join('\n');
  const search = useMemo(
    () => createFuzzySearch(items ?? [], keyId.split('\n'), threshold),
    [items, keyId, threshold],
  );
  return useMemo(() => search(query), [search, query]);
}
