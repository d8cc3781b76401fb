import type { JSONValue } from '@ai-sdk/provider';
import { ANSWERS } from './answer-phrases.ts';

/**
 * What the offline model says about a tool's result, as a person would say it: each built-in tool
 * has its own template ("Noted: buy bread."), any other tool's result becomes a short summary of
 * its key facts. Never the tool's internal name, never JSON.
 */

type Json = Record<string, JSONValue>;
export interface ResultContext {
  /** The arguments the tool was called with. */
  input: Json;
  /** The person's IANA time zone, for dates. */
  timeZone: string;
  /** Records (notes, events) earlier results in the conversation showed, by id: a deletion's title. */
  titleOf: (id: unknown) => string | undefined;
}

const isObject = (v: JSONValue | undefined): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const text = (v: JSONValue | undefined) => (typeof v === 'string' ? v.trim() : undefined);
const bare = (s: string) => s.replace(/[.!?]+$/, '');

/** "Tue 10 Mar, 15:00", in the person's time zone. */
export function when(iso: string, timeZone: string, withDay = true): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const options: Intl.DateTimeFormatOptions = withDay
    ? {
        timeZone,
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }
    : { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  return new Intl.DateTimeFormat('en-GB', options).format(at).replace(/ at /, ', ');
}

const sameDay = (a: string, b: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(a)) ===
  new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(b));

function span(start: string, end: string | undefined, timeZone: string): string {
  if (!end) return when(start, timeZone);
  return sameDay(start, end, timeZone)
    ? `${when(start, timeZone)}–${when(end, timeZone, false)}`
    : `${when(start, timeZone)} – ${when(end, timeZone)}`;
}

const noteLine = (n: Json) => {
  const body = text(n.body);
  return `- ${text(n.title) ?? ''}${body ? ` — ${body.length > 80 ? `${body.slice(0, 80).trimEnd()}…` : body}` : ''}`;
};
const eventLine = (e: Json, timeZone: string) =>
  `- ${span(String(e.start), text(e.end), timeZone)}: ${text(e.title) ?? ''}${text(e.location) ? ` (${text(e.location)})` : ''}`;

/** The answer templates of the built-in tools, by tool name; undefined when the output is not theirs. */
const TEMPLATES: Record<string, (out: JSONValue, ctx: ResultContext) => string | undefined> = {
  create_note: (out) =>
    isObject(out) && text(out.title) ? ANSWERS.noted(bare(text(out.title)!)) : undefined,
  list_notes: (out) => {
    if (!isObject(out) || !Array.isArray(out.notes)) return undefined;
    const notes = out.notes.filter(isObject);
    return notes.length === 0
      ? ANSWERS.noNotes
      : [ANSWERS.notes(notes.length), '', ...notes.map(noteLine)].join('\n');
  },
  search_notes: (out, ctx) => {
    if (!isObject(out) || !Array.isArray(out.notes)) return undefined;
    const notes = out.notes.filter(isObject);
    const query = String(ctx.input.query ?? '');
    return notes.length === 0
      ? ANSWERS.noNoteAbout(query)
      : [ANSWERS.notesAbout(notes.length, query), '', ...notes.map(noteLine)].join('\n');
  },
  get_note: (out) =>
    isObject(out) && text(out.title) !== undefined
      ? `**${text(out.title)}**${text(out.body) ? `\n\n${text(out.body)}` : `\n\n${ANSWERS.emptyNote}`}`
      : undefined,
  update_note: (out) =>
    isObject(out) && text(out.title) ? ANSWERS.updatedNote(text(out.title)!) : undefined,
  delete_note: (out, ctx) => (isObject(out) ? ANSWERS.deletedNote(deletedTitle(out, ctx)) : undefined),
  create_event: (out, ctx) =>
    isObject(out) && text(out.title) && text(out.start)
      ? ANSWERS.addedEvent(text(out.title)!, span(text(out.start)!, text(out.end), ctx.timeZone))
      : undefined,
  list_events: (out, ctx) => eventList(out, ctx, ANSWERS.noEvents),
  search_events: (out, ctx) => eventList(out, ctx, ANSWERS.noEventAbout(String(ctx.input.query ?? ''))),
  update_event: (out, ctx) =>
    isObject(out) && text(out.title) && text(out.start)
      ? ANSWERS.updatedEvent(text(out.title)!, span(text(out.start)!, text(out.end), ctx.timeZone))
      : undefined,
  delete_event: (out, ctx) => (isObject(out) ? ANSWERS.deletedEvent(deletedTitle(out, ctx)) : undefined),
  find_free_slots: (out, ctx) => {
    if (!isObject(out) || !Array.isArray(out.free_slots)) return undefined;
    const slots = out.free_slots.filter(isObject);
    if (slots.length === 0) return ANSWERS.noFreeTime;
    return [
      ANSWERS.freeTime,
      '',
      ...slots.map((s) => `- ${span(String(s.start), text(s.end), ctx.timeZone)}`),
    ].join('\n');
  },
  export_ics: (out) =>
    isObject(out) && typeof out.ics === 'string'
      ? `${ANSWERS.exported(Number(out.count ?? 0))}\n\n\`\`\`\n${out.ics.trim()}\n\`\`\``
      : undefined,
  now: (out) => (isObject(out) && text(out.readable) ? ANSWERS.now(text(out.readable)!) : undefined),
  convert_time: (out) =>
    isObject(out) && isObject(out.from) && isObject(out.to)
      ? ANSWERS.converted(String(out.from.readable), String(out.to.readable))
      : undefined,
  add_to_date: (out) =>
    isObject(out) && text(out.readable) ? ANSWERS.dateIs(text(out.readable)!) : undefined,
  day_of_week: (out) =>
    isObject(out) && text(out.day_of_week)
      ? ANSWERS.dayOfWeek(String(out.date), String(out.day_of_week))
      : undefined,
  difference: (out, ctx) =>
    isObject(out) && typeof out.total_days === 'number'
      ? ANSWERS.difference(String(ctx.input.start ?? ''), String(ctx.input.end ?? ''), out.total_days)
      : undefined,
};

function deletedTitle(out: Json, ctx: ResultContext): string | undefined {
  return text(out.title) ?? ctx.titleOf(out.id ?? ctx.input.id);
}

function eventList(out: JSONValue, ctx: ResultContext, none: string): string | undefined {
  if (!isObject(out) || !Array.isArray(out.events)) return undefined;
  const events = out.events.filter(isObject);
  if (events.length === 0) return none;
  return [ANSWERS.events(events.length), '', ...events.map((e) => eventLine(e, ctx.timeZone))].join('\n');
}

/** The calculator's answer: "(3 + 4) * 2 = **14**", or the operation written out from its inputs. */
const OPERATORS: Record<string, (i: Json) => string | undefined> = {
  add: (i) => `${i.a} + ${i.b}`,
  subtract: (i) => `${i.a} - ${i.b}`,
  multiply: (i) => `${i.a} × ${i.b}`,
  divide: (i) => `${i.a} ÷ ${i.b}`,
  power: (i) => `${i.base} ^ ${i.exponent}`,
  sqrt: (i) => `√${i.x}`,
  percent: (i) => `${i.percent}% of ${i.of}`,
};

function arithmetic(toolName: string, out: JSONValue, ctx: ResultContext): string | undefined {
  if (!isObject(out)) return undefined;
  if (typeof out.expression === 'string' && typeof out.result === 'number')
    return `${out.expression} = **${out.result}**`;
  const op = Object.keys(OPERATORS).find((name) => toolName === name || toolName.endsWith(`_${name}`));
  // The operation's one number ("result", or "sum" of another calculator).
  const numbers = Object.values(out).filter((v): v is number => typeof v === 'number');
  const value =
    typeof out.result === 'number' ? out.result : op && numbers.length === 1 ? numbers[0] : undefined;
  if (value === undefined) return undefined;
  const written = op && OPERATORS[op]!(ctx.input);
  return written && !written.includes('undefined') ? `${written} = **${value}**` : ANSWERS.result(value);
}

/** The answer for a tool's result: its template, else a short summary of what it holds. */
export function answerFor(toolName: string, out: JSONValue, ctx: ResultContext): string {
  const template = Object.hasOwn(TEMPLATES, toolName) ? TEMPLATES[toolName]!(out, ctx) : undefined;
  return template ?? arithmetic(toolName, out, ctx) ?? summary(out);
}

const LABEL_KEYS = [
  'title',
  'name',
  'full_name',
  'summary',
  'subject',
  'headline',
  'label',
  'text',
  'description',
];
const LINK_KEYS = ['url', 'html_url', 'link', 'href', 'web_url'];
const label = (key: string) =>
  key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
const short = (s: string, max = 160) => (s.length > max ? `${s.slice(0, max).replace(/\s+\S*$/, '')}…` : s);

function scalar(v: JSONValue | undefined): string | undefined {
  if (typeof v === 'string') return v.trim() ? short(v.trim().replace(/\s+/g, ' ')) : undefined;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return undefined;
}

/** One item of a list: its title (linked when it has an address), and one or two other facts. */
function itemLine(item: JSONValue): string {
  if (!isObject(item)) return `- ${scalar(item) ?? ''}`;
  const key = LABEL_KEYS.find((k) => scalar(item[k]));
  const link = LINK_KEYS.map((k) => text(item[k])).find((u) => u && /^https?:\/\//.test(u));
  const name = key ? scalar(item[key])! : undefined;
  const facts = Object.entries(item)
    .filter(
      ([k, v]) =>
        k !== key &&
        !LINK_KEYS.includes(k) &&
        !/(^|_)id$/.test(k) &&
        scalar(v) &&
        String(scalar(v)).length <= 40,
    )
    .slice(0, 2)
    .map(([k, v]) => `${label(k)}: ${scalar(v)}`);
  const head = name ? (link ? `[${name}](${link})` : name) : (facts.shift() ?? '');
  return `- ${head}${facts.length ? ` (${facts.join(', ')})` : ''}`;
}

/** The records a result lists: the result itself when a list, else its first list ("notes", "items"). */
export const listIn = (out: JSONValue): JSONValue[] | undefined =>
  Array.isArray(out)
    ? out
    : isObject(out)
      ? Object.values(out).find((v): v is JSONValue[] => Array.isArray(v))
      : undefined;

/** A readable summary of any tool's result: the list it holds, else its key facts. */
export function summary(out: JSONValue): string {
  if (out === null || out === undefined) return ANSWERS.done;
  if (typeof out !== 'object') return scalar(out) ?? ANSWERS.done;
  const list = listIn(out);
  if (list) {
    if (list.length === 0) return ANSWERS.nothingFound;
    const shown = list.slice(0, 10).map(itemLine);
    const more = list.length > shown.length ? [ANSWERS.more(list.length - shown.length)] : [];
    return [ANSWERS.found(list.length), '', ...shown, ...more].join('\n');
  }
  const facts = Object.entries(out as Json)
    .map(([k, v]) => [k, scalar(v)] as const)
    .filter((e): e is readonly [string, string] => e[1] !== undefined && !/(^|_)id$/.test(e[0]))
    .slice(0, 6);
  // Only "done: true", "ok: true": it worked, and that is all there is to say.
  if (facts.every(([, v]) => v === 'yes')) return ANSWERS.done;
  const key = LABEL_KEYS.find((k) => facts.some(([f]) => f === k));
  const rest = facts.filter(([f]) => f !== key).map(([k, v]) => `- ${label(k)}: ${v}`);
  const head = key ? facts.find(([f]) => f === key)![1] : ANSWERS.hereIs;
  return [head, ...(rest.length ? ['', ...rest] : [])].join('\n');
}
