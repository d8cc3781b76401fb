import { STOP_WORDS, SYNONYMS } from './phrases.ts';
import { COMMON_WORDS, FILLER, SMALL_TALK_WORDS, WORDS_READ } from './vocabulary.ts';
import { nameWords, stem, type ToolLike } from './tools.ts';

/**
 * Typos in the words the offline model reads ("whats 12 tmes 4", "shw my ntoes", "tahnks"): a word
 * it does not know, one or two edits (a transposition counts as one) from one it does, is read as
 * that one. Names (capitalised after the first word) and short words are left alone, and the first
 * letter must match: people rarely mistype it, and it keeps "bread" from becoming "read".
 */

/** Words never changed: the ones the model reads anywhere (they are spelled right already). */
const KNOWN = new Set<string>([
  ...STOP_WORDS,
  ...COMMON_WORDS,
  ...FILLER,
  ...WORDS_READ,
  ...Object.values(SMALL_TALK_WORDS).flat(),
  ...Object.keys(SYNONYMS),
  ...Object.values(SYNONYMS).flat(),
]);
/**
 * Words a typo is read as: those that decide what a message asks (verbs, calendar and note words,
 * operations, small talk), not every synonym: "report" must not become "record".
 */
const TARGETS = new Set([
  ...WORDS_READ,
  ...Object.values(SMALL_TALK_WORDS).flat(),
  'what',
  'show',
  'please',
  'tell',
]);

/** Optimal string alignment distance (Damerau–Levenshtein without repeated edits of a substring). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

function correction(word: string, targets: Set<string>): string | undefined {
  // Three letters: only a missing letter ("shw" → "show"); four or five: one edit; longer: two.
  // Never towards a shorter word ("latest" is not "later"), except a held last letter ("heyy").
  const max = word.length <= 5 ? 1 : 2;
  const held = /(.)\1$/.test(word);
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const candidate of targets) {
    if (candidate[0] !== word[0] || candidate.length < 3) continue;
    if (word.length === 3 && candidate.length !== 4) continue;
    // A letter too many is a typo too ("substract"), in a word long enough not to be another word.
    if (candidate.length < word.length && !held && (word.length < 6 || candidate.length < word.length - 1))
      continue;
    const d = editDistance(word, candidate, candidate.length < word.length ? 1 : max);
    // On a tie, a longer word: a letter left out is the commonest typo ("helo" is "hello").
    if (d < bestDistance || (d === bestDistance && best && candidate.length > best.length))
      [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** The message with its mistyped keywords corrected; everything else as typed. */
export function correctSpelling(message: string, tools: ToolLike[] = []): string {
  // The agent's tool names are words it reads too: the shared sets are not copied each turn.
  const names = tools.flatMap((t) => nameWords(t.name));
  const own = new Set(names);
  const known = (w: string) => KNOWN.has(w) || own.has(w);
  const long = names.filter((w) => w.length >= 5);
  const targets = long.length ? new Set([...TARGETS, ...long]) : TARGETS;
  // Whole words only: not inside addresses, ids, paths or numbers ("hello-world", "q3-report").
  return message.replace(
    /(^|\s)([A-Za-z]+)(?=[\s,.!?:;]|$)/g,
    (all, space: string, word: string, at: number) => {
      const lower = word.toLowerCase();
      if (lower.length < 3 || known(lower) || known(stem(lower))) return all;
      if (at > 0 && /^[A-Z]/.test(word)) return all;
      const fixed = correction(lower, targets);
      return fixed ? `${space}${fixed}` : all;
    },
  );
}

/**
 * The words of an argument as the person typed them: a title or a query is taken from the
 * corrected message (so "rember to" is cut as a command), but a word of it that was "corrected"
 * ("fridge" read as "friday") is theirs to keep.
 */
export function asTyped(
  input: Record<string, unknown>,
  corrected: string,
  original: string,
): Record<string, unknown> {
  const fixed = corrected.split(/\s+/);
  const typed = original.split(/\s+/);
  if (fixed.length !== typed.length || corrected === original) return input;
  const core = (w: string) => w.replace(/[^A-Za-z]/g, '');
  const out = { ...input };
  for (const [key, value] of Object.entries(out)) {
    if (typeof value !== 'string') continue;
    let text = value;
    fixed.forEach((word, i) => {
      if (word !== typed[i] && core(word))
        text = text.replace(new RegExp(`\\b${core(word)}\\b`), core(typed[i]!));
    });
    out[key] = text;
  }
  return out;
}
