import type { JSONSchema7 } from '@ai-sdk/provider';

/** What kind of value each input of a tool's JSON Schema takes, by its type, format and name. */

type Schema = JSONSchema7;
export type Field = [name: string, schema: Schema];

export const typeOf = (schema: Schema): string | undefined => {
  const t = schema.type;
  if (Array.isArray(t)) return t.find((x) => x !== 'null');
  if (t) return t;
  if (schema.enum) return typeof schema.enum[0] === 'number' ? 'number' : 'string';
  return undefined;
};

export const isNumber = (s: Schema) => ['number', 'integer'].includes(typeOf(s) ?? '');
export const isDateField = ([name, s]: Field) =>
  s.format === 'date' ||
  s.format === 'date-time' ||
  /^(date|date_?time|day|when|due|due_date|start|starts?_at|deadline|from|to|end|ends?_at)$/i.test(name);
export const isTimeZoneField = ([name]: Field) => /(^|_)(time_?zone|tz|zone)$/i.test(name);
/** Which way a time-zone field points: from_/source_ zones are said after "from", to_/target_ after "to". */
export const zoneDirection = (name: string) =>
  /^(from|source|src)_/i.test(name) ? 'from' : /^(to|target|dest(ination)?)_/i.test(name) ? 'to' : undefined;
export const isPlaceField = ([name]: Field) => /^(city|town|location|place|where)$/i.test(name);
export const isIdField = ([name]: Field) => /(^|_)(id|number)$/i.test(name);
export const isFreeText = (field: Field) =>
  typeOf(field[1]) === 'string' &&
  !field[1].enum &&
  !isDateField(field) &&
  !field[1].format &&
  !isIdField(field) &&
  !isTimeZoneField(field);
