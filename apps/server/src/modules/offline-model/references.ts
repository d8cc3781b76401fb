import type { JSONSchema7, JSONValue } from '@ai-sdk/provider';
import { ANSWERS } from './answer-phrases.ts';
import { listIn } from './answers.ts';
import { argumentsFor } from './arguments.ts';
import { findDates } from './dates.ts';
import { isIdField } from './fields.ts';
import { correctSpelling } from './spelling.ts';
import { nameWords, rankTools, type ToolLike } from './tools.ts';
import type { UserClock } from '../../user-clock.ts';

/**
 * A record named by its topic rather than its id ("delete the note about renew passport", "move my
 * dentist appointment to Friday"): the tool that changes it needs an id, so the offline model
 * first searches for the topic with the same service's search tool, then offers the change of the
 * one record found (a write waits for the person's approval), or asks which one when several match.
 */

interface Call {
  toolName: string;
  input: Record<string, unknown>;
}

/** Words that say what to do with the record or point at it, not what it is about. */
const POINTING =
  /\b(?:get rid of|please|pls|plz|can you|could you|would you|delete|remove|erase|drop|trash|cancel|rename|retitle|change|edit|update|modify|move|reschedule|postpone|push|read|open|show|view|fetch|display|my|the|a|an|about|called|named|titled|regarding|on|with the title|that says|of)\b/gi;

const takesOnlyId = (tool: ToolLike, missing: string[]) =>
  missing.length > 0 && missing.every((name) => isIdField([name, {} as JSONSchema7]));

/** What the record is about: the request without its verb, its object's name, dates and new values. */
export function referenceTopic(message: string, tool: ToolLike, clock: UserClock): string {
  let text = message.replace(/[?!.]+$/, '');
  for (const found of findDates(text, clock)) text = text.replace(found.text, ' ');
  // "rename the bread note to buy bread and milk": the new value is not the topic.
  text = text.replace(/\s+(?:to|as|into|for)\s+.*$/i, '');
  const own = new Set(nameWords(tool.name).flatMap((w) => [w, `${w}s`]));
  const words = text
    .replace(POINTING, ' ')
    .split(/\s+/)
    .filter((w) => w && !own.has(w.toLowerCase()));
  return words
    .join(' ')
    .replace(/^["'“]|["'”]$/g, '')
    .trim();
}

/** The search tool of the same service ("search_notes" for "delete_note") and its text input. */
function searchFor(tool: ToolLike, tools: ToolLike[]): { tool: ToolLike; field: string } | undefined {
  const object = nameWords(tool.name).at(-1);
  const search = tools.find((t) => {
    const words = nameWords(t.name);
    return t !== tool && words.includes('search') && object !== undefined && words.includes(object);
  });
  const field = search?.inputSchema.required?.[0];
  return search && field ? { tool: search, field } : undefined;
}

/** The search to run first when a request names its record by topic, or undefined. */
export function referenceSearch(
  message: string,
  tool: ToolLike,
  missing: string[],
  tools: ToolLike[],
  clock: UserClock,
): Call | undefined {
  if (!takesOnlyId(tool, missing)) return undefined;
  const search = searchFor(tool, tools);
  const topic = referenceTopic(message, tool, clock);
  if (!search || !topic) return undefined;
  return { toolName: search.tool.name, input: { [search.field]: topic } };
}

/** After that search: the change of the one record found, or a question, or that none matched. */
export function resolveReference(
  message: string,
  tools: ToolLike[],
  clock: UserClock,
  searched: string,
  result: JSONValue,
): { toolCall: Call } | { text: string } | undefined {
  message = correctSpelling(message, tools);
  const fill = argumentsFor(message, clock);
  const target = rankTools(message, tools, (t) => fill(t).missing.length === 0)[0];
  if (!target) return undefined;
  const { input, missing } = fill(target);
  const search = referenceSearch(message, target, missing, tools, clock);
  if (!search || search.toolName !== searched) return undefined;
  // The list a search result object holds, as the built-in searches return ({ notes: […] }).
  const list = !Array.isArray(result) ? listIn(result) : undefined;
  if (!list) return undefined;
  const kind = nameWords(target.name).at(-1) ?? 'record';
  const topic = String(Object.values(search.input)[0]);
  if (list.length === 0) return { text: ANSWERS.noneToChange(kind, topic) };
  if (list.length > 1) return undefined; // the list itself is the answer: the person picks one
  const record = list[0] as Record<string, JSONValue>;
  const idField = missing[0]!;
  return { toolCall: { toolName: target.name, input: { ...input, [idField]: record.id } } };
}
