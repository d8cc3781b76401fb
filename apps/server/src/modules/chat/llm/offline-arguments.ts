import type { JSONSchema7 } from '@ai-sdk/provider';

/**
 * How the offline model fills a tool's arguments from a chat message, where the tool's JSON Schema
 * allows it (offline-model.ts).
 */

type Schema = JSONSchema7;

const typeOf = (schema: Schema): string | undefined => {
  const t = schema.type;
  if (Array.isArray(t)) return t.find((x) => x !== 'null');
  if (t) return t;
  if (schema.enum) return typeof schema.enum[0] === 'number' ? 'number' : 'string';
  return undefined;
};

const normaliseKey = (key: string) => key.toLowerCase().replace(/[\s_-]+/g, '');

function isoDate(offsetDays: number, now = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offsetDays));
  return d.toISOString().slice(0, 10);
}

function isDateField(name: string, schema: Schema) {
  return schema.format === 'date' || schema.format === 'date-time' || /date|day|when|due/i.test(name);
}

/**
 * Fills a tool's arguments from a chat message where the schema allows: `key: value` pairs,
 * numbers, quoted strings, ISO dates and "today"/"tomorrow", enum words, and — when exactly one
 * free-text string field is left — the rest of the message.
 */
export function fillArguments(
  message: string,
  inputSchema: Schema,
  now = new Date(),
): { input: Record<string, unknown>; missing: string[] } {
  const properties = Object.entries(
    (inputSchema.properties ?? {}) as Record<string, Schema | boolean>,
  ).filter((e): e is [string, Schema] => typeof e[1] === 'object');
  const required = new Set(inputSchema.required ?? []);
  const input: Record<string, unknown> = {};
  let rest = message;
  const consume = (text: string) => {
    rest = rest.replace(text, ' ');
  };
  const coerce = (schema: Schema, raw: string): unknown => {
    const value = raw.trim().replace(/^["'“”]|["'“”]$/g, '');
    const type = typeOf(schema);
    if (type === 'number' || type === 'integer') {
      const n = Number(value);
      return Number.isFinite(n) ? (type === 'integer' ? Math.trunc(n) : n) : undefined;
    }
    if (type === 'boolean')
      return /^(true|yes|on|1)$/i.test(value) ? true : /^(false|no|off|0)$/i.test(value) ? false : undefined;
    if (schema.enum)
      return schema.enum.find((e) => String(e).toLowerCase() === value.toLowerCase()) as unknown;
    if (type === 'string' && isDateField('', schema)) return parseDate(value, now) ?? value;
    return value;
  };

  // 1. key: value pairs ("to: bob@example.com", "amount = 3"), values up to the next pair.
  const byKey = new Map(properties.map(([name, schema]) => [normaliseKey(name), [name, schema] as const]));
  const pairPattern =
    /([A-Za-z][\w -]{0,40}?)\s*[:=]\s*("[^"]*"|'[^']*'|[^,;\n]*?)(?=\s*(?:[,;\n]|$|\s[A-Za-z][\w-]{0,40}\s*[:=]))/g;
  for (const match of message.matchAll(pairPattern)) {
    const found =
      byKey.get(normaliseKey(match[1]!.trim().split(/\s+/).at(-1)!)) ?? byKey.get(normaliseKey(match[1]!));
    if (!found || input[found[0]] !== undefined) continue;
    const value = coerce(found[1], match[2]!);
    if (value !== undefined && value !== '') {
      input[found[0]] = value;
      consume(match[0]);
    }
  }
  const unfilled = () => properties.filter(([name]) => input[name] === undefined);

  // 2. Dates: ISO dates, today, tomorrow.
  for (const [name, schema] of unfilled()) {
    if (typeOf(schema) !== 'string' || !isDateField(name, schema)) continue;
    const match = rest.match(
      /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?\b|\btoday\b|\btomorrow\b/i,
    );
    if (!match) continue;
    const value = parseDate(match[0], now)!;
    input[name] = schema.format === 'date-time' && value.length === 10 ? `${value}T09:00:00Z` : value;
    consume(match[0]);
  }

  // 3. Enum words.
  for (const [name, schema] of unfilled()) {
    if (!schema.enum) continue;
    const hit = schema.enum.find((e) => new RegExp(`\\b${escapeRegExp(String(e))}\\b`, 'i').test(rest));
    if (hit !== undefined) {
      input[name] = hit;
      consume(String(hit));
    }
  }

  // 4. Numbers, in order.
  const numberFields = unfilled().filter(([, s]) => ['number', 'integer'].includes(typeOf(s) ?? ''));
  for (const [name, schema] of numberFields) {
    const match = rest.match(/(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/);
    if (!match) break;
    input[name] = typeOf(schema) === 'integer' ? Math.trunc(Number(match[0])) : Number(match[0]);
    rest = rest.replace(match[0], ' ');
  }

  // 5. Quoted strings, in order.
  const stringFields = () => unfilled().filter(([, s]) => typeOf(s) === 'string' && !s.enum);
  for (const [name] of stringFields()) {
    const match = rest.match(/"([^"]+)"|“([^”]+)”|'([^']+)'/);
    if (!match) break;
    input[name] = match[1] ?? match[2] ?? match[3];
    consume(match[0]);
  }

  // 6. One free-text field left: it gets the rest of the message.
  const left = stringFields();
  const requiredLeft = left.filter(([name]) => required.has(name));
  const allStrings = properties.filter(([, s]) => typeOf(s) === 'string' && !s.enum);
  // An optional field only takes the rest when it is the schema's one string field.
  const target =
    requiredLeft.length === 1
      ? requiredLeft[0]
      : left.length === 1 && allStrings.length === 1
        ? left[0]
        : undefined;
  if (target) {
    const text = rest.replace(/\s+/g, ' ').trim();
    if (text) input[target[0]] = text;
  }

  const missing = [...required].filter((name) => input[name] === undefined);
  return { input, missing };
}

function parseDate(value: string, now: Date): string | undefined {
  if (/^today$/i.test(value)) return isoDate(0, now);
  if (/^tomorrow$/i.test(value)) return isoDate(1, now);
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) return value;
  return undefined;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An example call's arguments for the tool's first three inputs, e.g. `a: 2, due: tomorrow`. */
export function exampleArgs(schema: Schema): string {
  const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>).slice(0, 3);
  return props
    .map(([name, s]) => {
      const type = typeOf(s);
      const sample =
        type === 'number' || type === 'integer'
          ? '2'
          : isDateField(name, s)
            ? 'tomorrow'
            : s.enum
              ? String(s.enum[0])
              : '"…"';
      return `${name}: ${sample}`;
    })
    .join(', ');
}
