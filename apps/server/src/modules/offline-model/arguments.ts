import type { JSONSchema7 } from '@ai-sdk/provider';
import { atLocalHour, findDates, formatInZone, localDate } from './dates.ts';
import {
  isDateField,
  isFreeText,
  isIdField,
  isNumber,
  isPlaceField,
  isTimeZoneField,
  typeOf,
  zoneDirection,
  type Field,
} from './fields.ts';
import { freeText } from './free-text.ts';
import { cityZone, durationIn, newName } from './argument-rules.ts';
import { numberWords } from './arithmetic.ts';
import type { UserClock } from '../../user-clock.ts';

/**
 * How the offline model fills a tool's arguments from a request, where the tool's JSON Schema
 * allows it: `name: value` pairs, dates (chrono-node, in the person's time zone), enum words,
 * emails, URLs, ids ("ORD-1042", "order 1042"), numbers, quoted strings, and — for the one
 * free-text field left — the words of the request that are not the command ("note down: call the
 * bank" → "call the bank").
 */

type Schema = JSONSchema7;

const normaliseKey = (key: string) => key.toLowerCase().replace(/[\s_-]+/g, '');
const about = ([name, schema]: Field) =>
  `${name.replace(/_/g, ' ')} ${schema.description ?? ''}`.toLowerCase();

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const URL_TEXT = /\bhttps?:\/\/[^\s"'<>]+[^\s"'<>.,;:!?)]/i;
const ID_TOKEN = /\b[A-Za-z]{2,6}-\d{2,8}\b/;
const BARE_ID = /(?:#|\b(?:order|ticket|lead|customer|invoice|number|no\.?|id)\s+#?)(\d{2,10})\b/i;
const COUNT_NEAR =
  /\b(?:the\s+)?(?:top|first|last|latest|limit|max(?:imum)?|count)\s+(\d{1,4})(?:\s+(?:results?|items?|stories|notes|events|leads|startups|videos|places|articles|links))?\b|\b(\d{1,4})\s+(?:results?|items?|stories|notes|events|leads|startups|videos|places|articles|links)\b/i;

const IANA_ZONE = /\b(?:UTC|[A-Z][A-Za-z]+(?:\/[A-Z][A-Za-z_+-]+){1,2})\b/g;
/** "octocat/hello-world": a repository's owner and name, for tools that take both. */
const OWNER_REPO = /(?<![\w.:/-])([A-Za-z0-9][\w.-]{0,99})\/([\w.-]{1,100})(?![\w/])/;
/** "in Paris", "for New York", "in Paris,FR": a place said by its capitalised name. */
const PLACE = /\b(?:in|at|for|near)\s+(\p{Lu}[\p{L}'’.-]*(?:[ -]\p{Lu}[\p{L}'’.-]*){0,3}(?:,\s?[A-Z]{2})?)/u;
const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

export function fillArguments(
  message: string,
  inputSchema: Schema,
  options: { clock?: UserClock; toolName?: string } = {},
): { input: Record<string, unknown>; missing: string[] } {
  const clock = options.clock ?? { now: new Date(), timeZone: 'UTC' };
  const fields = Object.entries((inputSchema.properties ?? {}) as Record<string, Schema | boolean>).filter(
    (e): e is Field => typeof e[1] === 'object',
  );
  const required = new Set(inputSchema.required ?? []);
  const input: Record<string, unknown> = {};
  let rest = message;
  const take = (text: string) => {
    rest = rest.replace(text, ' ');
  };
  const unfilled = () => fields.filter(([name]) => input[name] === undefined);

  // 1. name: value pairs ("title: Groceries", "amount = 3"), values up to the next pair.
  const byKey = new Map(fields.map((f) => [normaliseKey(f[0]), f] as const));
  const pairPattern =
    /([A-Za-z][\w -]{0,40}?)\s*[:=]\s*("[^"]*"|'[^']*'|[^,;\n]*?)(?=\s*(?:[,;\n]|$|\s[A-Za-z][\w-]{0,40}\s*[:=]))/g;
  for (const match of message.matchAll(pairPattern)) {
    const key = match[1]!.trim();
    const field = byKey.get(normaliseKey(key.split(/\s+/).at(-1)!)) ?? byKey.get(normaliseKey(key));
    if (!field || input[field[0]] !== undefined) continue;
    const value = coerce(field[1], match[2]!);
    if (value !== undefined && value !== '') {
      input[field[0]] = value;
      take(match[0]);
    }
  }

  // An amount of time ("in 90 days", "2 weeks"), for a tool that takes an amount and a unit; the
  // date it counts from is today unless one is said.
  const unitField = unfilled().find(([, f]) => f.enum?.some((v) => /^(days|weeks|months)$/.test(String(v))));
  const amountField = unfilled().find((f) => isNumber(f[1]) && /amount|count|number|^n$|value/i.test(f[0]));
  const duration = unitField && amountField ? durationIn(rest) : undefined;
  if (duration && unitField![1].enum!.includes(duration.unit)) {
    input[amountField![0]] = duration.amount;
    input[unitField![0]] = duration.unit;
    take(duration.text);
  }

  // 2. Dates and times, in the person's time zone; not inside quoted text ("'Parents evening'").
  const dateFields = unfilled().filter(isDateField);
  const unquoted = rest.replace(/"[^"]*"|“[^”]*”|(?<!\w)'[^']*'(?!\w)/g, (q) => ' '.repeat(q.length));
  const dates = dateFields.length > 0 ? findDates(unquoted, clock) : [];
  const found = dates[0];
  if (!found && duration && dateFields.length === 1 && required.has(dateFields[0]![0]))
    input[dateFields[0]![0]] = localDate(clock.now, clock.timeZone);
  if (found) {
    // A date said without a time stays a date where the field takes one ("YYYY-MM-DD or date-time").
    const asText = (at: Date, schema: Schema, hasTime = found.hasTime) =>
      schema.format === 'date' || (!hasTime && schema.format !== 'date-time')
        ? localDate(at, clock.timeZone)
        : formatInZone(at, clock.timeZone);
    const later = dates[1];
    const [first, second] = dateFields;
    const endField = dateFields.find(([n]) => /^(end|ends?_at|to)$/i.test(n));
    const startField = dateFields.find((f) => f !== endField) ?? first!;
    // A day to look in starts at midnight; an event on a day starts at 9.
    const start =
      !found.hasTime && /^(from|after|since)$/i.test(startField[0])
        ? atLocalHour(found.start, 0, clock.timeZone)
        : found.start;
    input[startField[0]] = asText(start, startField[1]);
    if (endField && endField !== startField && later && !found.end) {
      // "from 2026-01-01 to 2026-03-09": two dates, the second is the end.
      input[endField[0]] = asText(later.start, endField[1], later.hasTime);
      take(later.text);
    } else if (endField && endField !== startField) {
      // A range as said, else an hour for an event, else the whole day for a search.
      const end =
        found.end ??
        (found.hasTime || /^(end|ends?_at)$/i.test(endField[0])
          ? new Date(start.getTime() + 3_600_000)
          : new Date(start.getTime() + 86_400_000));
      input[endField[0]] = asText(end, endField[1]);
    } else if (second && second !== startField && found.end) input[second[0]] = asText(found.end, second[1]);
    take(found.text);
  }

  // 3. Enum words ("damaged", "healthcare", "wrong item").
  for (const [name, schema] of unfilled()) {
    if (!schema.enum) continue;
    const hit = schema.enum.find((e) =>
      new RegExp(`\\b${escapeRegExp(String(e)).replace(/_/g, '[ _-]?')}\\b`, 'i').test(rest),
    );
    if (hit !== undefined) {
      input[name] = hit;
      rest = rest.replace(new RegExp(`\\b${escapeRegExp(String(hit)).replace(/_/g, '[ _-]?')}\\b`, 'i'), ' ');
    }
  }

  // 4. Emails, URLs and ids go to the field whose name or description fits them; they stay in
  //    the free text too ("the tent in ORD-1030 arrived broken" keeps its order id).
  const typed: Array<[RegExp, (f: Field) => boolean]> = [
    [EMAIL, (f) => f[1].format === 'email' || /e-?mail|recipient|\bto\b/.test(about(f))],
    [URL_TEXT, (f) => f[1].format === 'uri' || /\burl\b|link|website|web page|\bpage\b/.test(about(f))],
    [ID_TOKEN, (f) => isIdField(f) || /\bid\b|order id|ids?\b/.test(about(f))],
  ];
  for (const [pattern, fits] of typed) {
    const match = message.match(pattern);
    if (!match) continue;
    const field = unfilled().find((f) => typeOf(f[1]) === 'string' && !f[1].enum && fits(f));
    if (field) input[field[0]] = match[0];
  }
  // Time zones: an IANA name said ("Asia/Tokyo"; "from X to Y" for from_ and to_ fields), else the
  // person's own.
  const named = [...rest.matchAll(IANA_ZONE)].filter((m) => isTimeZone(m[0]));
  // Else cities ("in Tokyo", "9am New York time"), read as their zones.
  const cities = named.length === 0 && unfilled().some(isTimeZoneField) ? cityZone(rest) : [];
  const zones = named.length
    ? named
    : cities.map((c) => Object.assign([c.zone] as unknown as RegExpExecArray, { index: c.index }));
  for (const city of cities) take(city.text);
  const zoneAfter = (word: RegExp) => zones.find((m) => word.test(rest.slice(0, m.index).trimEnd()));
  for (const field of unfilled().filter(isTimeZoneField)) {
    const direction = zoneDirection(field[0]);
    const unused = zones.filter((m) => !Object.values(input).includes(m[0]));
    const said =
      (direction && zoneAfter(new RegExp(`\\b${direction}$`, 'i'))?.[0]) ??
      (direction === 'to' ? unused.at(-1) : unused[0])?.[0];
    if (said) input[field[0]] = said;
    else if (required.has(field[0]) || field[1].default !== undefined) input[field[0]] = clock.timeZone;
  }
  for (const zone of zones) if (Object.values(input).includes(zone[0])) take(zone[0]);

  // A repository said as owner/name, for a tool taking both.
  const [ownerField, repoField] = [/^owner$/i, /^repo(sitory)?(_name)?$/i].map((n) =>
    unfilled().find(([name, s]) => n.test(name) && typeOf(s) === 'string'),
  );
  const repository = ownerField && repoField ? rest.match(OWNER_REPO) : null;
  if (repository) {
    input[ownerField![0]] = repository[1];
    input[repoField![0]] = repository[2];
    take(repository[0]);
  }

  // A place, by its capitalised name after "in", "for", "near".
  const place = unfilled().find((f) => isPlaceField(f) && typeOf(f[1]) === 'string');
  const placeSaid = place && rest.match(PLACE);
  if (place && placeSaid) {
    input[place[0]] = placeSaid[1];
    take(placeSaid[0]);
  }

  const bareId = message.match(BARE_ID);
  const idField =
    unfilled().find((f) => isIdField(f)) ??
    unfilled().find((f) => typeOf(f[1]) === 'string' && !f[1].enum && /\bid\b/.test(about(f)));
  if (bareId && idField) {
    input[idField[0]] = isNumber(idField[1]) ? Number(bareId[1]) : bareId[1];
    take(bareId[1]!);
  }

  // Number words said for a number the tool needs: "note two".
  if (unfilled().some((f) => isNumber(f[1]) && required.has(f[0]))) rest = numberWords(rest);

  // 5. Numbers: required number fields in order; an optional one only when the request says
  //    what the number counts ("top 5 stories"), so "hiking boots 2026" keeps its year.
  for (const field of unfilled().filter((f) => isNumber(f[1]))) {
    const near = required.has(field[0]) ? undefined : rest.match(COUNT_NEAR);
    const match = required.has(field[0]) ? rest.match(/(?<![\w.-])-?\d+(?:\.\d+)?(?![\w.-])/) : near;
    if (!match) continue;
    const text = required.has(field[0]) ? match[0] : (match[1] ?? match[2])!;
    input[field[0]] = typeOf(field[1]) === 'integer' ? Math.trunc(Number(text)) : Number(text);
    rest = required.has(field[0]) ? rest.replace(text, ' ') : rest.replace(match[0], ' ');
  }

  // 6. Quoted strings, to the free-text fields in order.
  for (const [name] of unfilled().filter(isFreeText)) {
    const match = rest.match(/"([^"]+)"|“([^”]+)”|(?<!\w)'([^']+)'(?!\w)/);
    if (!match) break;
    input[name] = match[1] ?? match[2] ?? match[3];
    take(match[0]);
  }

  // "rename note 3 to Shopping": the new name.
  const nameField = unfilled().find(
    ([name, f]) => /^(title|name|summary)$/i.test(name) && typeOf(f) === 'string',
  );
  const renamed = nameField && newName(message);
  if (nameField && renamed) input[nameField[0]] = renamed;

  // 7. The free text: to the one required free-text field left, else to the schema's only one.
  const left = unfilled().filter(isFreeText);
  const requiredLeft = left.filter(([name]) => required.has(name));
  const allFree = fields.filter(isFreeText);
  const target =
    requiredLeft.length >= 1
      ? requiredLeft[0]
      : left.length === 1 && allFree.length === 1
        ? left[0]
        : undefined;
  if (target) {
    let text = freeText(rest, options.toolName);
    // Not the address another field took ("email bob@… saying …"), nor, for an optional field,
    // the URL another field took (a link in a message's body is part of it).
    for (const value of Object.values(input)) {
      const taken = typeof value === 'string' && (EMAIL.test(value) || URL_TEXT.test(value));
      if (taken && (EMAIL.test(value) || !required.has(target[0])))
        text = freeText(text.replace(value, ' '), options.toolName);
    }
    if (text) input[target[0]] = text;
  }

  const missing = [...required].filter((name) => input[name] === undefined);
  return { input, missing };
}

/** The arguments of one request for each tool it is weighed against, read once per tool. */
export function argumentsFor(message: string, clock: UserClock) {
  const filled = new Map<string, ReturnType<typeof fillArguments>>();
  return (tool: { name: string; inputSchema: Schema }) => {
    const found =
      filled.get(tool.name) ?? fillArguments(message, tool.inputSchema, { clock, toolName: tool.name });
    filled.set(tool.name, found);
    return found;
  };
}

/** How many of a tool's non-free-text fields the request fills (ids, emails, dates, enum words). */
export function typedFits(input: Record<string, unknown>, schema: Schema): number {
  const fields = Object.entries((schema.properties ?? {}) as Record<string, Schema | boolean>).filter(
    (e): e is Field => typeof e[1] === 'object',
  );
  return fields.filter((f) => input[f[0]] !== undefined && !isFreeText(f) && !isNumber(f[1])).length;
}

function coerce(schema: Schema, raw: string): unknown {
  const value = raw.trim().replace(/^["'“”]|["'“”]$/g, '');
  const type = typeOf(schema);
  if (type === 'number' || type === 'integer') {
    const n = Number(value);
    return Number.isFinite(n) ? (type === 'integer' ? Math.trunc(n) : n) : undefined;
  }
  if (type === 'boolean')
    return /^(true|yes|on|1)$/i.test(value) ? true : /^(false|no|off|0)$/i.test(value) ? false : undefined;
  if (schema.enum) return schema.enum.find((e) => String(e).toLowerCase() === value.toLowerCase()) as unknown;
  return value;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
