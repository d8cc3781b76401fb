import type { JSONSchema7 } from '@ai-sdk/provider';
import * as fields from './fields.ts';
import type { Field } from './fields.ts';
import { REQUEST_VERBS, SAMPLE_VALUES, SHARED_NAME_EXAMPLES, TOOL_EXAMPLES } from './phrases.ts';
import { calculatorTools, type ToolLike } from './tools.ts';

/**
 * An example request for each tool, as a person would type it: the phrase data's sentence for a
 * well-known tool, else one made from the tool's name and required inputs with sample values
 * ("Send email to ana@example.com saying …"). A tool whose inputs have no plausible sample (an id,
 * a free-text query with no hint) gets none, rather than a template with field names in it.
 */

export interface ExampleTool extends ToolLike {
  /** The name people see ("Send Email" for GMAIL_SEND_EMAIL), where the tool has one. */
  displayName?: string;
}

/** An example request, and the arguments the model must take from it (a made-up example's samples). */
export interface Example {
  text: string;
  expects: Record<string, unknown>;
}

const own = <T>(table: Record<string, T>, key: string) =>
  Object.hasOwn(table, key) ? table[key] : undefined;

/** The phrase data's sentence for a well-known tool; "search_2" is the runtime's second "search". */
export function knownExample(tool: ToolLike): string | undefined {
  const base = tool.name.replace(/_\d+$/, '');
  const shared = own(SHARED_NAME_EXAMPLES, base);
  if (shared) return shared.find(([service]) => service.test(tool.description ?? ''))?.[1];
  const named = own(TOOL_EXAMPLES, tool.name) ?? own(TOOL_EXAMPLES, base);
  if (named) return named;
  // A calculator operation by another name ("calculator_add", "get-sum") is asked for as the operation.
  const calc = calculatorTools([tool]);
  const operation = (Object.keys(calc) as Array<keyof typeof calc>).find((op) => calc[op] === tool);
  return operation && own(TOOL_EXAMPLES, operation);
}

const wordsOfName = (name: string) =>
  name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** A value the schema itself gives: `examples`, a default, or "e.g. X" in its description. */
function givenValue(schema: JSONSchema7): unknown {
  const primitive = (v: unknown) => (['string', 'number'].includes(typeof v) ? v : undefined);
  const listed = Array.isArray(schema.examples) ? primitive(schema.examples[0]) : undefined;
  const hint =
    /(?:e\.g\.|for example|such as|like)[:,]?\s+["“'‘]?([^"”'’,;)]+?)["”'’]?(?:[,;)]|\.?$|\s+or\s)/i.exec(
      schema.description ?? '',
    )?.[1];
  const fromHint = hint && fields.isNumber(schema) ? Number(hint) : hint;
  return listed ?? primitive(schema.default) ?? (Number.isNaN(fromHint) ? undefined : fromHint);
}

const SENDING = /^(send|email|mail|invite|share|forward|message|notify|reply)$/;

/** The words that say one required input with a sample value, and the value the call must carry. */
function sample(field: Field, verb: string): { phrase: string; value?: unknown } | undefined {
  const [name, schema] = field;
  const label = name.replace(/[_-]+/g, ' ').toLowerCase();
  const given = givenValue(schema);
  if (schema.enum) return { phrase: `${label} ${String(schema.enum[0])}`, value: schema.enum[0] };
  if (fields.isNumber(schema)) {
    const byName = /^lat(itude)?$/i.test(name)
      ? SAMPLE_VALUES.latitude
      : /^(lng|lon|long|longitude)$/i.test(name)
        ? SAMPLE_VALUES.longitude
        : /(limit|count|max|number|top|size|amount|quantity|results)/i.test(name)
          ? SAMPLE_VALUES.count
          : undefined;
    const value = typeof given === 'number' ? given : byName;
    return value === undefined ? undefined : { phrase: `${label} ${value}`, value };
  }
  if (fields.typeOf(schema) !== 'string' || fields.isIdField(field)) return undefined;
  const text = typeof given === 'string' ? given : undefined;
  // The schema's own value, else a sample, after the word that says what it is for.
  const valued = (lead: string, fallback: string) => {
    const value = text ?? fallback;
    return { phrase: lead ? `${lead} ${value}` : value, value };
  };
  if (schema.format === 'email' || /e-?mail|recipient/i.test(name))
    return valued(SENDING.test(verb) ? 'to' : 'for', SAMPLE_VALUES.email);
  if (schema.format === 'uri' || schema.format === 'url' || /url|link|website|href/i.test(name))
    return valued('', SAMPLE_VALUES.url);
  if (fields.isTimeZoneField(field))
    return valued(fields.zoneDirection(name) ?? 'in', SAMPLE_VALUES.timeZone);
  // A date is read from the words ("tomorrow"): the call must have one, whatever day it is.
  if (fields.isDateField(field)) return { phrase: SAMPLE_VALUES.date };
  if (fields.isPlaceField(field)) return valued('in', SAMPLE_VALUES.place);
  if (/country/i.test(name)) return valued('in', SAMPLE_VALUES.country);
  if (/lang(uage)?$/i.test(name)) return valued('into', SAMPLE_VALUES.language);
  const quoted = (lead: string, value: string) => ({ phrase: `${lead}"${value}"`, value });
  if (/^(title|subject|name|summary|heading|topic)$/i.test(name))
    return quoted('titled ', text ?? SAMPLE_VALUES.title);
  if (/^(message|body|text|content|note|comment|description|prompt)$/i.test(name))
    return quoted(
      SENDING.test(verb) || /^(post|comment)$/.test(verb) ? 'saying ' : '',
      text ?? SAMPLE_VALUES.message,
    );
  // A search, or any other text, only with a value the tool's own schema suggests.
  return text ? quoted('for ', text) : undefined;
}

/** A request made from the tool's name and required inputs; undefined when one input has no sample. */
export function derivedExample(tool: ExampleTool): Example | undefined {
  const properties = tool.inputSchema.properties ?? {};
  const required = (tool.inputSchema.required ?? []).filter((n) => typeof properties[n] === 'object');
  const words = wordsOfName(tool.displayName?.trim() || tool.name);
  if (words.length === 0 || required.length > 3) return undefined;
  // "get_forecast" asks to show the forecast; "top_stories" to show the top stories.
  const head =
    /^(get|fetch|retrieve|query)$/.test(words[0]!) && words.length > 1
      ? ['show', ...words.slice(1)]
      : REQUEST_VERBS.has(words[0]!)
        ? words
        : ['show', ...words];
  const phrases = [head.join(' ')];
  const expects: Record<string, unknown> = {};
  // A repository is said as owner/name.
  const owner = required.find((n) => /^owner$/i.test(n));
  const repo = required.find((n) => /^repo(sitory)?(_name)?$/i.test(n));
  if (owner && repo) {
    phrases.push(`in ${SAMPLE_VALUES.owner}/${SAMPLE_VALUES.repo}`);
    Object.assign(expects, { [owner]: SAMPLE_VALUES.owner, [repo]: SAMPLE_VALUES.repo });
  }
  for (const name of required) {
    if (owner && repo && (name === owner || name === repo)) continue;
    const said = sample([name, properties[name] as JSONSchema7], head[0]!);
    if (!said) return undefined;
    phrases.push(said.phrase);
    if (said.value !== undefined) expects[name] = said.value;
  }
  return { text: phrases.join(' '), expects };
}
