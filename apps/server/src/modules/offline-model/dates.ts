import * as chrono from 'chrono-node';
import { formatInZone, offsetMinutes, type UserClock } from '../../user-clock.ts';

/** Dates and times in a request ("tomorrow at 3pm", "next Monday", "March 20 from 2 to 3pm"), by chrono-node. */

export interface FoundDate {
  /** The words that said it, to take out of the rest of the message. */
  text: string;
  start: Date;
  end?: Date;
  /** Whether a time of day was said (else the date alone). */
  hasTime: boolean;
}

const DEFAULT_HOUR = 9;

/** Holidays on the same day every year, which chrono-node does not read by name. */
const HOLIDAYS: Array<[RegExp, number, number]> = [
  [/\bchristmas eve\b/i, 12, 24],
  [/\b(?:christmas|xmas)(?: day)?\b/i, 12, 25],
  [/\bboxing day\b/i, 12, 26],
  [/\bnew year'?s eve\b/i, 12, 31],
  [/\bnew year'?s(?: day)?\b/i, 1, 1],
  [/\bvalentine'?s(?: day)?\b/i, 2, 14],
  [/\bhalloween\b/i, 10, 31],
];

const MONTH_NAMES = /^\s*(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;

/** chrono-node's casual English, plus holidays by name and a day of the month alone ("on the 19th"). */
const parser = chrono.casual.clone();
for (const [pattern, month, day] of HOLIDAYS)
  parser.parsers.push({ pattern: () => pattern, extract: () => ({ day, month }) });
parser.parsers.push({
  pattern: () => /\bthe\s+([12]?\d|3[01])(?:st|nd|rd|th)\b/i,
  // "the 19th of March" is chrono's own; the 19th alone is this month's, or next month's once past.
  extract: (context, match) => {
    if (MONTH_NAMES.test(context.text.slice((match.index ?? 0) + match[0].length))) return null;
    const today = context.reference.getDateWithAdjustedTimezone();
    const day = Number(match[1]);
    const month = today.getMonth() + (day < today.getDate() ? 1 : 0);
    return { day, month: (month % 12) + 1, year: today.getFullYear() + Math.floor(month / 12) };
  },
});

/** The dates and times in `text`, read in the person's time zone, forward from now. */
export function findDates(text: string, clock: UserClock): FoundDate[] {
  const parse = (offset: number) =>
    parser.parse(text, { instant: clock.now, timezone: offset }, { forwardDate: true });
  const nowOffset = offsetMinutes(clock.timeZone, clock.now);
  // "3 weeks" alone is an amount ("add 3 weeks to …"), not a time; "in 3 weeks" is a time.
  const duration = /^\d+(?:\.\d+)?\s+(?:seconds?|minutes?|mins?|hours?|days?|weeks?|months?|years?)$/i;
  // "the day of the week" names no day.
  const noun = /^(?:the\s+(?:day|week|month|year)|week\s?days?|weekends?)$/i;
  return parse(nowOffset).flatMap((first, i) => {
    if (duration.test(first.text.trim()) || noun.test(first.text.trim())) return [];
    // Daylight saving may differ between now and then: read it again with the offset of then.
    const then = offsetMinutes(clock.timeZone, first.start.date());
    const result = then === nowOffset ? first : (parse(then)[i] ?? first);
    const hasTime = result.start.isCertain('hour');
    let start = result.start.date();
    if (!hasTime) start = atLocalHour(start, DEFAULT_HOUR, clock.timeZone);
    return [{ text: result.text, start, end: result.end?.date(), hasTime }];
  });
}

/** The same local day at `hour`:00 in `timeZone`. */
export function atLocalHour(at: Date, hour: number, timeZone: string): Date {
  const day = localDate(at, timeZone);
  const guess = new Date(`${day}T${String(hour).padStart(2, '0')}:00:00Z`);
  return new Date(guess.getTime() - offsetMinutes(timeZone, guess) * 60_000);
}

/** The local calendar date of `at` in `timeZone`: 2026-03-10. */
export const localDate = (at: Date, timeZone: string) => formatInZone(at, timeZone).slice(0, 10);

export { formatInZone };
