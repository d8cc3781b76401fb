/**
 * The person's clock as the system prompt states it: their IANA time zone and the current time
 * there. Every model reads it as text; the offline model reads it back with `readClock`, so that
 * "tomorrow at 3pm" is the person's tomorrow. A shared layer, not part of either module: the chat
 * runtime writes the line and the offline model reads it, so its format lives in one place.
 */
export interface UserClock {
  now: Date;
  timeZone: string;
}

/**
 * The formatter that tells a zone's offset, made once per zone: building an `Intl.DateTimeFormat`
 * costs far more than formatting with it. Only zones the turn's schema accepted (known IANA names)
 * get here, so the map stays small.
 */
const offsetFormats = new Map<string, Intl.DateTimeFormat>();
function offsetFormat(timeZone: string): Intl.DateTimeFormat {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormats.set(timeZone, format);
  }
  return format;
}

/** The offset of `timeZone` from UTC at `at`, in minutes (Europe/Paris in winter: 60). */
export function offsetMinutes(timeZone: string, at: Date): number {
  const name = offsetFormat(timeZone)
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name ?? '');
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

/** `at` with its zone's `offset` (minutes), to the second: 2026-03-10T15:00:00+01:00. */
function withOffset(at: Date, offset: number): string {
  const local = new Date(at.getTime() + offset * 60_000).toISOString().slice(0, 19);
  if (offset === 0) return `${local}Z`;
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${offset < 0 ? '-' : '+'}${hh}:${mm}`;
}

/** `at` as local time in `timeZone` with its offset, to the second: 2026-03-10T15:00:00+01:00. */
export const formatInZone = (at: Date, timeZone: string): string =>
  withOffset(at, offsetMinutes(timeZone, at));

/**
 * The zones' offsets in the current minute, asked by every turn's system prompt: a zone's offset
 * changes only on a minute's boundary, so ICU is asked once a minute per zone.
 */
const offsetsThisMinute = { minute: -1, byZone: new Map<string, number>() };
function offsetNow(timeZone: string, now: Date): number {
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute !== offsetsThisMinute.minute) {
    offsetsThisMinute.minute = minute;
    offsetsThisMinute.byZone.clear();
  }
  let offset = offsetsThisMinute.byZone.get(timeZone);
  if (offset === undefined) {
    offset = offsetMinutes(timeZone, now);
    offsetsThisMinute.byZone.set(timeZone, offset);
  }
  return offset;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The system prompt's line about the person's clock. */
export function timeLine(now: Date, timeZone: string): string {
  const offset = offsetNow(timeZone, now);
  const weekday = WEEKDAYS[new Date(now.getTime() + offset * 60_000).getUTCDay()];
  return `The user's time zone is ${timeZone}; it is now ${withOffset(now, offset)} there (${weekday}).`;
}

const TIME_LINE = /The user's time zone is ([A-Za-z0-9_+\-/]+); it is now (\S+) there/;

/** The clock `timeLine` wrote into a system prompt, or UTC and `fallback` when there is none. */
export function readClock(system: string, fallback = new Date()): UserClock {
  const match = TIME_LINE.exec(system);
  const now = match ? new Date(match[2]!) : fallback;
  return {
    timeZone: match?.[1] ?? 'UTC',
    now: Number.isNaN(now.getTime()) ? fallback : now,
  };
}
