import { z } from 'zod';
import { ToolError } from '../../provider.ts';
import { defineAction, initialsLogo, type BuiltinService } from './define.ts';
import * as store from './store.ts';

/** A personal calendar kept in Cadre: events, free-slot search and .ics export, per user. */

const instant = z.iso
  .datetime({ offset: true })
  .describe('A date-time with an offset, e.g. "2026-03-01T14:00:00+01:00" or "2026-03-01T13:00:00Z"');
const eventId = z.number().int().positive().describe('The event id, from list_events or search_events');
const limit = z.number().int().min(1).max(200).default(50);

const toUtc = (text: string) => new Date(text).toISOString();

type EventRow = Awaited<ReturnType<typeof store.ownEvents.get>>;
const eventOut = (e: EventRow) => ({
  id: e.id,
  title: e.title,
  description: e.description,
  location: e.location,
  start: e.starts_at,
  end: e.ends_at,
});

function checkOrder(start: string, end: string) {
  if (end <= start) throw new ToolError('invalid_input', 'The end must be after the start');
}

/** Free intervals of at least `minutes` within [from, to), given busy events. */
export function freeSlots(from: string, to: string, busy: { start: string; end: string }[], minutes: number) {
  const slots: { start: string; end: string; minutes: number }[] = [];
  let cursor = Date.parse(from);
  const stop = Date.parse(to);
  const sorted = busy
    .map((b) => [Date.parse(b.start), Date.parse(b.end)] as const)
    .sort((a, b) => a[0] - b[0]);
  const push = (a: number, b: number) => {
    if (b - a >= minutes * 60_000) {
      slots.push({
        start: new Date(a).toISOString(),
        end: new Date(b).toISOString(),
        minutes: Math.floor((b - a) / 60_000),
      });
    }
  };
  for (const [start, end] of sorted) {
    if (start > cursor) push(cursor, Math.min(start, stop));
    cursor = Math.max(cursor, end);
    if (cursor >= stop) break;
  }
  if (cursor < stop) push(cursor, stop);
  return slots;
}

const icsText = (text: string) =>
  text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
const icsTime = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** Folds a content line at 75 characters, as RFC 5545 section 3.1 asks. */
function fold(line: string): string {
  const parts: string[] = [];
  for (let i = 0; i < line.length; i += i === 0 ? 75 : 74) parts.push(line.slice(i, i + (i === 0 ? 75 : 74)));
  return parts.join('\r\n ');
}

export function toIcs(events: EventRow[], stamp = new Date().toISOString()): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Cadre//Calendar//EN', 'CALSCALE:GREGORIAN'];
  for (const e of events) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:cadre-event-${e.id}@cadre`,
      `DTSTAMP:${icsTime(stamp)}`,
      `DTSTART:${icsTime(e.starts_at)}`,
      `DTEND:${icsTime(e.ends_at)}`,
      `SUMMARY:${icsText(e.title)}`,
    );
    if (e.description) lines.push(`DESCRIPTION:${icsText(e.description)}`);
    if (e.location) lines.push(`LOCATION:${icsText(e.location)}`);
    lines.push('END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}

export const calendar: BuiltinService = {
  key: 'calendar',
  name: 'Calendar',
  description:
    'A private calendar kept in Cadre: agents can add, list, search, move and delete your events, find free time slots, and export events as an .ics file for other calendar apps.',
  logo: initialsLogo('Cal', '#C53030'),
  authScheme: 'NO_AUTH',
  actions: [
    defineAction({
      name: 'create_event',
      displayName: 'Create event',
      description: 'Adds an event to your calendar. Times need an offset; they are stored in UTC.',
      effect: 'write',
      input: z.object({
        title: z.string().trim().min(1).max(200),
        start: instant,
        end: instant,
        description: z.string().max(5000).default(''),
        location: z.string().max(300).default(''),
      }),
      run: async ({ title, start, end, description, location }, ctx) => {
        const [starts_at, ends_at] = [toUtc(start), toUtc(end)];
        checkOrder(starts_at, ends_at);
        return eventOut(
          await store.createEvent(ctx.db, ctx.userId, { title, description, location, starts_at, ends_at }),
        );
      },
    }),
    defineAction({
      name: 'list_events',
      displayName: 'List events',
      description: 'Lists events that overlap a time range (both bounds optional), earliest first.',
      effect: 'read',
      input: z.object({ from: instant.optional(), to: instant.optional(), limit }),
      run: async ({ from, to, limit }, ctx) => ({
        events: (
          await store.listEvents(
            ctx.db,
            ctx.userId,
            { from: from && toUtc(from), to: to && toUtc(to) },
            limit,
          )
        ).map(eventOut),
      }),
    }),
    defineAction({
      name: 'search_events',
      displayName: 'Search events',
      description: 'Finds events whose title, description or location contains the text (case-insensitive).',
      effect: 'read',
      input: z.object({ query: z.string().trim().min(1).max(200), limit }),
      run: async ({ query, limit }, ctx) => ({
        events: (await store.searchEvents(ctx.db, ctx.userId, query, limit)).map(eventOut),
      }),
    }),
    defineAction({
      name: 'update_event',
      displayName: 'Update event',
      description:
        'Changes an event (title, times, description or location). Fields left out stay as they are.',
      effect: 'write',
      input: z.object({
        id: eventId,
        title: z.string().trim().min(1).max(200).optional(),
        start: instant.optional(),
        end: instant.optional(),
        description: z.string().max(5000).optional(),
        location: z.string().max(300).optional(),
      }),
      run: async ({ id, title, start, end, description, location }, ctx) => {
        const current = await store.ownEvents.get(ctx.db, ctx.userId, id);
        const starts_at = start ? toUtc(start) : current.starts_at;
        const ends_at = end ? toUtc(end) : current.ends_at;
        checkOrder(starts_at, ends_at);
        const changes = { title, description, location, starts_at, ends_at };
        return eventOut(await store.ownEvents.update(ctx.db, ctx.userId, id, changes));
      },
    }),
    store.ownEvents.deleteAction({
      name: 'delete_event',
      displayName: 'Delete event',
      description: 'Deletes an event.',
      id: eventId,
    }),
    defineAction({
      name: 'find_free_slots',
      displayName: 'Find free time',
      description:
        'Finds free intervals of at least duration_minutes between from and to, around your existing events.',
      effect: 'read',
      input: z.object({
        from: instant,
        to: instant,
        duration_minutes: z.number().int().min(1).max(10_080).default(30),
      }),
      run: async ({ from, to, duration_minutes }, ctx) => {
        const [a, b] = [toUtc(from), toUtc(to)];
        checkOrder(a, b);
        if (Date.parse(b) - Date.parse(a) > 366 * 86_400_000) {
          throw new ToolError('invalid_input', 'The range may span at most a year');
        }
        const events = await store.listEvents(ctx.db, ctx.userId, { from: a, to: b }, 5000);
        return {
          free_slots: freeSlots(
            a,
            b,
            events.map((e) => ({ start: e.starts_at, end: e.ends_at })),
            duration_minutes,
          ),
        };
      },
    }),
    defineAction({
      name: 'export_ics',
      displayName: 'Export as .ics',
      description: 'Exports events (optionally only those in a time range) as iCalendar (.ics) text.',
      effect: 'read',
      input: z.object({ from: instant.optional(), to: instant.optional() }),
      run: async ({ from, to }, ctx) => {
        const events = await store.listEvents(
          ctx.db,
          ctx.userId,
          { from: from && toUtc(from), to: to && toUtc(to) },
          5000,
        );
        return {
          filename: 'calendar.ics',
          content_type: 'text/calendar',
          ics: toIcs(events),
          count: events.length,
        };
      },
    }),
  ],
};
