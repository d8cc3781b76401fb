/**
 * The person's clock as the system prompt states it: their IANA time zone and the current time
 * there. Every model reads it as text; the offline model reads it back with `readClock`, so that
 * "tomorrow at 3pm" is the person's tomorrow.
 */
export interface UserClock {
  now: Date;
  timeZone: string;
}

/**
 * Formatters by kind and time zone, made once: building an `Intl.DateTimeFormat` costs far more
 * than formatting with it, and every turn's system prompt formats the person's clock. Only zones
 * the turn's schema accepted (known IANA names) get here, so the map stays small.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: 'offset' | 'weekday', timeZone: string): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(
      'en-US',
      kind === 'offset' ? { timeZone, timeZoneName: 'longOffset' } : { timeZone, weekday: 'long' },
    );
    formatters.set(key, format);
  }
  return format;
}

/** The offset of `timeZone` from UTC at `at`, in minutes (Europe/Paris in winter: 60). */
export function offsetMinutes(timeZone: string, at: Date): number {
  const name = formatter('offset', timeZone)
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name ?? '');
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

/** `at` as local time in `timeZone` with its offset, to the second: 2026-03-10T15:00:00+01:00. */
export function formatInZone(at: Date, timeZone: string): string {
  const offset = offsetMinutes(timeZone, at);
  const local = new Date(at.getTime() + offset * 60_000).toISOString().slice(0, 19);
  if (offset === 0) return `${local}Z`;
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${offset < 0 ? '-' : '+'}${hh}:${mm}`;
}

const weekday = (at: Date, timeZone: string) => formatter('weekday', timeZone).format(at);

/** The system prompt's line about the person's clock. */
export function timeLine(now: Date, timeZone: string): string {
  return `The user's time zone is ${timeZone}; it is now ${formatInZone(now, timeZone)} there (${weekday(now, timeZone)}).`;
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
