import { z } from 'zod';
import { ToolError } from '../../provider.ts';
import { defineAction, initialsLogo, type BuiltinService } from './define.ts';

/** Dates and time zones with Intl only: no time zone data of our own to keep up to date. */

function checkZone(zone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw new ToolError(
      'invalid_input',
      `Unknown time zone "${zone}"; use an IANA name such as Europe/Paris`,
    );
  }
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallTimeIn(instant: number, zone: string): WallTime {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

const utcOf = (w: WallTime) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

/** Offset of a zone from UTC at an instant, in minutes. */
function offsetMinutes(instant: number, zone: string): number {
  const floored = Math.floor(instant / 1000) * 1000;
  return Math.round((utcOf(wallTimeIn(floored, zone)) - floored) / 60_000);
}

/** The instant at which the wall clock in `zone` shows `wall` (the earlier one in a DST overlap). */
function instantOf(wall: WallTime, zone: string): number {
  const guess = utcOf(wall);
  const first = guess - offsetMinutes(guess, zone) * 60_000;
  return guess - offsetMinutes(first, zone) * 60_000;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const formatOffset = (minutes: number) =>
  `${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;

function describeInstant(instant: number, zone: string) {
  const wall = wallTimeIn(instant, zone);
  const offset = offsetMinutes(instant, zone);
  const local = `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}`;
  return {
    time_zone: zone,
    local_time: local,
    iso: `${local}${formatOffset(offset)}`,
    utc: new Date(instant).toISOString(),
    utc_offset: formatOffset(offset),
    day_of_week: new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'long' }).format(
      new Date(instant),
    ),
    readable: new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      dateStyle: 'full',
      timeStyle: 'long',
    }).format(new Date(instant)),
  };
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** Parses a date or date-time; with no offset it is read as wall time in `zone`. */
function parseMoment(text: string, zone: string): number {
  const local = LOCAL.exec(text.trim());
  if (local) {
    const [, y, mo, d, h = '0', mi = '0', s = '0'] = local;
    const wall = { year: +y!, month: +mo!, day: +d!, hour: +h, minute: +mi, second: +s };
    const check = new Date(Date.UTC(wall.year, wall.month - 1, wall.day));
    if (check.getUTCMonth() !== wall.month - 1 || wall.hour > 23 || wall.minute > 59 || wall.second > 59) {
      throw new ToolError('invalid_input', `"${text}" is not a valid date`);
    }
    return instantOf(wall, zone);
  }
  if (/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/i.test(text.trim())) {
    const instant = Date.parse(text);
    if (!Number.isNaN(instant)) return instant;
  }
  throw new ToolError(
    'invalid_input',
    `"${text}" is not a date; use YYYY-MM-DD or YYYY-MM-DDTHH:mm[:ss][offset]`,
  );
}

const zoneField = z
  .string()
  .default('UTC')
  .describe('IANA time zone name, e.g. "Europe/Paris", "America/New_York" or "UTC"');
const dateField = z
  .string()
  .describe(
    'A date "YYYY-MM-DD" or date-time "YYYY-MM-DDTHH:mm[:ss]", optionally with an offset such as "Z" or "+02:00"',
  );

const UNITS = ['minutes', 'hours', 'days', 'weeks', 'months', 'years'] as const;

function addToWall(wall: WallTime, amount: number, unit: (typeof UNITS)[number]): WallTime {
  if (unit === 'months' || unit === 'years') {
    const months = wall.year * 12 + (wall.month - 1) + (unit === 'years' ? amount * 12 : amount);
    const year = Math.floor(months / 12);
    const month = (months % 12) + 1;
    const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
    return { ...wall, year, month, day: Math.min(wall.day, lastDay) };
  }
  const date = new Date(utcOf(wall));
  if (unit === 'days' || unit === 'weeks')
    date.setUTCDate(date.getUTCDate() + amount * (unit === 'weeks' ? 7 : 1));
  const w = {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
  };
  return w;
}

export const dateTime: BuiltinService = {
  key: 'datetime',
  name: 'Date & Time',
  description:
    'The current date and time in any time zone, conversion between time zones, date arithmetic (add days, weeks, months...), the day of the week of a date, and the time between two dates.',
  logo: initialsLogo('DT', '#2B6CB0'),
  authScheme: 'NO_AUTH',
  actions: [
    defineAction({
      name: 'now',
      displayName: 'Current time',
      description:
        'The current date and time in a time zone (default UTC), with its UTC offset and day of week.',
      effect: 'read',
      input: z.object({ time_zone: zoneField }),
      run: async ({ time_zone }) => describeInstant(Date.now(), checkZone(time_zone)),
    }),
    defineAction({
      name: 'convert_time',
      displayName: 'Convert between time zones',
      description:
        'Converts a date-time from one time zone to another. A date-time without an offset is read as wall time in from_time_zone.',
      effect: 'read',
      input: z.object({
        datetime: dateField,
        from_time_zone: zoneField,
        to_time_zone: z.string().describe('IANA time zone to convert to'),
      }),
      run: async ({ datetime, from_time_zone, to_time_zone }) => {
        const from = checkZone(from_time_zone);
        const instant = parseMoment(datetime, from);
        return {
          from: describeInstant(instant, from),
          to: describeInstant(instant, checkZone(to_time_zone)),
        };
      },
    }),
    defineAction({
      name: 'add_to_date',
      displayName: 'Add to a date',
      description:
        'Adds (or, with a negative amount, subtracts) minutes, hours, days, weeks, months or years to a date. Months and years keep the day of month, clamped to the month length (Jan 31 + 1 month = Feb 28/29).',
      effect: 'read',
      input: z.object({
        date: dateField,
        amount: z.number().int().min(-100_000).max(100_000),
        unit: z.enum(UNITS),
        time_zone: zoneField,
      }),
      run: async ({ date, amount, unit, time_zone }) => {
        const zone = checkZone(time_zone);
        const start = parseMoment(date, zone);
        const result =
          unit === 'minutes' || unit === 'hours'
            ? start + amount * (unit === 'hours' ? 3_600_000 : 60_000)
            : instantOf(addToWall(wallTimeIn(start, zone), amount, unit), zone);
        const described = describeInstant(result, zone);
        return { ...described, date: described.local_time.slice(0, 10) };
      },
    }),
    defineAction({
      name: 'day_of_week',
      displayName: 'Day of the week',
      description:
        'The day of the week (Monday...Sunday) of a date, plus its ISO week number and day of year.',
      effect: 'read',
      input: z.object({ date: dateField }),
      run: async ({ date }) => {
        const wall = wallTimeIn(parseMoment(date, 'UTC'), 'UTC');
        const day = new Date(Date.UTC(wall.year, wall.month - 1, wall.day));
        // ISO week: the week (Monday first) holding the year's first Thursday is week 1.
        const thursday = new Date(day);
        thursday.setUTCDate(day.getUTCDate() + 4 - (day.getUTCDay() || 7));
        const isoWeek = Math.ceil(
          ((thursday.getTime() - Date.UTC(thursday.getUTCFullYear(), 0, 1)) / 86_400_000 + 1) / 7,
        );
        return {
          date: `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`,
          day_of_week: new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'long' }).format(day),
          iso_week: isoWeek,
          day_of_year: Math.round((day.getTime() - Date.UTC(wall.year, 0, 1)) / 86_400_000) + 1,
        };
      },
    }),
    defineAction({
      name: 'difference',
      displayName: 'Time between dates',
      description:
        'The time from start to end (negative when end is earlier): total days, hours and minutes, and a calendar breakdown in years, months and days.',
      effect: 'read',
      input: z.object({ start: dateField, end: dateField, time_zone: zoneField }),
      run: async ({ start, end, time_zone }) => {
        const zone = checkZone(time_zone);
        const a = parseMoment(start, zone);
        const b = parseMoment(end, zone);
        const ms = b - a;
        const [from, to] =
          ms >= 0 ? [wallTimeIn(a, zone), wallTimeIn(b, zone)] : [wallTimeIn(b, zone), wallTimeIn(a, zone)];
        let months = (to.year - from.year) * 12 + (to.month - from.month);
        if (utcOf(addToWall(from, months, 'months')) > utcOf(to)) months--;
        const afterMonths = addToWall(from, months, 'months');
        const days = Math.floor((utcOf(to) - utcOf(afterMonths)) / 86_400_000);
        const sign = ms < 0 ? -1 : 1;
        return {
          total_days: Math.trunc(ms / 86_400_000),
          total_hours: Math.trunc(ms / 3_600_000),
          total_minutes: Math.trunc(ms / 60_000),
          calendar: {
            years: sign * Math.floor(months / 12),
            months: sign * (months % 12),
            days: sign * days,
          },
        };
      },
    }),
  ],
};
