import type { JSONSchema7 } from '@ai-sdk/provider';
import { isDeepStrictEqual } from 'node:util';
import { SEARCH_KNOWLEDGE_TOOL } from '@cadre/contract';
import { knowledgeTopic } from './knowledge.ts';
import { readArithmetic, type Operation } from './arithmetic.ts';
import { argumentsFor, fillArguments, typedFits } from './arguments.ts';
import { isIdField } from './fields.ts';
import { derivedExample, knownExample, type ExampleTool } from './examples.ts';
import { ASKED, CANCEL, PHRASES } from './phrases.ts';
import { smallTalkOf, type SmallTalk } from './small-talk.ts';
import { asTyped, correctSpelling } from './spelling.ts';
import { referenceSearch } from './references.ts';
import {
  bestTool,
  calculatorTools,
  firstSentence,
  nameWords,
  stem,
  vocabulary,
  type ToolLike,
} from './tools.ts';
import type { UserClock } from '../../user-clock.ts';

/**
 * What the offline model does with a person's message, in order: answer a question it asked on
 * the last turn, answer small talk (no tool), compute arithmetic with the calculator, run the
 * tool the request is about with arguments taken from the sentence, ask one question for what is
 * missing, or say that no attached tool can do it and what the agent can do instead.
 */

export type Decision =
  { text: string } | { toolCall: { toolName: string; input: Record<string, unknown> }; text?: string };

export interface Turn {
  message: string;
  /** The person's message before the last answer, and the last answer (for a pending question). */
  previousUser?: string;
  previousAnswer?: string;
  agentName: string;
  clock: UserClock;
}

const tidy = (message: string) =>
  message
    .toLowerCase()
    .replace(/['’]/g, "'")
    .replace(/[!?.,;:]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export function decideTurn(turn: Turn, tools: ToolLike[]): Decision {
  const followUp = answerToQuestion(turn, tools);
  if (followUp) return followUp;

  const message = correctSpelling(turn.message, tools);
  const talk = smallTalkOf(message);
  if (talk) return { text: smallTalk(talk, turn.agentName, tools) };

  const routed = route(message, tools, turn.clock);
  if ('toolCall' in routed) {
    const { toolName, input } = routed.toolCall;
    return { toolCall: { toolName, input: asTyped(input, message, turn.message) } };
  }
  if ('ask' in routed) return { text: askFor(routed.ask, routed.missing) };
  return { text: PHRASES.cannot(toolList(tools)) };
}

type Routed =
  | { toolCall: { toolName: string; input: Record<string, unknown> } }
  | { ask: ToolLike; missing: string[] }
  | { cannot: true };

/** A request (not small talk, no pending question): the tool call it asks for, or what is missing. */
function route(message: string, tools: ToolLike[], clock: UserClock): Routed {
  // "According to my documents, …": the agent's own files answer it, when it has some.
  const knowledge = tools.find((t) => t.name === SEARCH_KNOWLEDGE_TOOL);
  const topic = knowledge && knowledgeTopic(message);
  if (topic) return { toolCall: { toolName: SEARCH_KNOWLEDGE_TOOL, input: { query: topic } } };

  const arithmetic = readArithmetic(message);
  if (arithmetic) {
    const call = calculatorCall(arithmetic.expression, arithmetic.operation, tools);
    if (call) return { toolCall: call };
  }

  const fill = argumentsFor(message, clock);
  // A tool that takes the request's ids, emails, dates and enum words fits it better.
  const tool = bestTool(
    message,
    tools,
    (t) => fill(t).missing.length === 0,
    (t) =>
      Math.min(2, typedFits(fill(t).input, t.inputSchema)) +
      (namesItsRecord(t, message) ? 1 : 0) -
      (makesWithoutBeingAsked(t, message) ? 3 : 0),
  );
  if (!tool || (arithmetic && !calculatorCall(arithmetic.expression, arithmetic.operation, [tool]))) {
    // A question no tool is named for goes to the agent's files, else to the web search.
    const search = QUESTION.test(tidy(message)) && !arithmetic ? (knowledge ?? webSearch(tools)) : undefined;
    const query = search?.inputSchema.required?.[0];
    if (search && query)
      return { toolCall: { toolName: search.name, input: { [query]: message.trim().replace(/\?+$/, '') } } };
    return { cannot: true };
  }
  const { input, missing } = fill(tool);
  // "delete the bread note": search for the note first (references.ts).
  const reference = referenceSearch(message, tool, missing, tools, clock);
  if (reference) return { toolCall: reference };
  if (missing.length > 0) return { ask: tool, missing };
  return { toolCall: { toolName: tool.name, input } };
}

const QUESTION = /^(who|what|whats|when|where|why|which|how|is|are|does|did|do|can|could|should|will)\b/;

/**
 * A tool that makes something ("create_note") for a question or a plural ("any notes?", "can I
 * see my notes"), with none of its verbs said: the person asks what there is, not to add to it.
 */
function makesWithoutBeingAsked(tool: ToolLike, message: string): boolean {
  const [verb] = nameWords(tool.name);
  if (!verb || !MAKING.has(verb)) return false;
  const said = tidy(message);
  const asking = QUESTION.test(said) || /\?\s*$/.test(message) || /^(any|my|show|see)\b/.test(said);
  const plural = /\b(notes|events|meetings|appointments|reminders)\b/.test(said);
  if (!asking && !plural) return false;
  // "what did I write down?", "have I noted …": asked about what was made before.
  if (asking && /\b(?:did|have) i\b/.test(said)) return true;
  const verbs = vocabulary({ name: verb, inputSchema: {} });
  return !said.split(' ').some((w) => verbs.has(stem(w)));
}

/** "open note 5", "what's in note two": the record the tool takes by id, named by its number. */
function namesItsRecord(tool: ToolLike, message: string): boolean {
  const object = nameWords(tool.name).at(-1);
  const takesId = (tool.inputSchema.required ?? []).some((name) => isIdField([name, {}]));
  return (
    takesId &&
    !!object &&
    new RegExp(`\\b${object}s?\\s+(?:number\\s+|no\\.?\\s*|#)?(?:\\d+|${NUMBER_WORDS})\\b`, 'i').test(message)
  );
}

const NUMBER_WORDS = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve';

const MAKING = new Set(['create', 'add', 'new', 'make', 'save', 'post']);

const webSearch = (tools: ToolLike[]) =>
  tools.find(
    (t) =>
      /search/i.test(t.name) &&
      /\b(web|internet)\b/i.test(`${t.name.replace(/_/g, ' ')} ${t.description ?? ''}`),
  );

/** The last answer asked for arguments of a tool: read the reply as those arguments. */
function answerToQuestion(turn: Turn, tools: ToolLike[]): Decision | undefined {
  const asked = turn.previousAnswer ? ASKED.exec(turn.previousAnswer.trim()) : null;
  const tool = asked && tools.find((t) => t.name === asked[1]);
  if (!tool || !turn.previousUser) return undefined;
  if (CANCEL.test(tidy(turn.message))) return { text: PHRASES.cancelled(tool.name) };
  const fields = [...asked[2]!.matchAll(/\*\*([\w.-]+)\*\*/g)].map((m) => m[1]!);
  const clock = turn.clock;
  const before = fillArguments(turn.previousUser, tool.inputSchema, { clock, toolName: tool.name }).input;
  // The reply answers the asked fields first: "tomorrow at 3pm", "Sam", "42".
  const reply = fillArguments(turn.message, onlyFields(tool.inputSchema, fields), {
    clock,
    toolName: tool.name,
  });
  const [field] = fields;
  const answer = turn.message.trim().replace(/[.!?]+$/, '');
  if (fields.length === 1 && reply.missing.length > 0 && field && isText(tool.inputSchema, field) && answer)
    reply.input[field] = answer;
  const input = { ...before, ...reply.input };
  const missing = (tool.inputSchema.required ?? []).filter((name) => input[name] === undefined);
  if (missing.length > 0) return { text: askFor(tool, missing) };
  return { toolCall: { toolName: tool.name, input } };
}

function onlyFields(schema: JSONSchema7, fields: string[]): JSONSchema7 {
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).filter(([name]) => fields.includes(name)),
  );
  // With only "start" asked, an event's "end" still follows from it.
  if (fields.includes('start') && schema.properties?.end) properties.end = schema.properties.end;
  return { ...schema, properties, required: fields };
}

const isText = (schema: JSONSchema7, field: string) => {
  const s = schema.properties?.[field];
  return typeof s === 'object' && s.type === 'string' && !s.enum && !s.format;
};

function askFor(tool: ToolLike, all: string[]): string {
  // An end follows from its start (an hour later): ask for the start alone.
  const missing = all.filter((f) => !(/^(end|to)$/.test(f) && all.some((s) => /^(start|from)$/.test(s))));
  const hints = missing
    .map((name) => {
      const s = tool.inputSchema.properties?.[name];
      return typeof s === 'object' && s.description ? `${name}: ${s.description.replace(/\.$/, '')}` : '';
    })
    .filter(Boolean);
  return PHRASES.askFor(tool.name, missing, hints);
}

/** The calculator call for an expression: Evaluate when attached, else the one operation's tool. */
function calculatorCall(
  expression: string,
  operation: Operation | undefined,
  tools: ToolLike[],
): { toolName: string; input: Record<string, unknown> } | undefined {
  const calc = calculatorTools(tools);
  if (calc.evaluate) {
    const field = Object.entries(calc.evaluate.inputSchema.properties ?? {}).find(
      ([, s]) => typeof s === 'object' && s.type === 'string',
    )![0];
    return { toolName: calc.evaluate.name, input: { [field]: expression } };
  }
  if (!operation) return undefined;
  const tool = calc[operation.op];
  if (!tool) return undefined;
  const values = Object.values(operation).filter((v): v is number => typeof v === 'number');
  const names = Object.keys(tool.inputSchema.properties ?? {});
  const input: Record<string, unknown> = {};
  names.forEach((name, i) => {
    const own = (operation as Record<string, unknown>)[name];
    if (typeof own === 'number') input[name] = own;
    else if (values[i] !== undefined) input[name] = values[i];
  });
  return { toolName: tool.name, input };
}

function smallTalk(kind: SmallTalk, agent: string, tools: ToolLike[]): string {
  // Thanks and goodbye are answered briefly; who and what this is, with what it can do.
  if (kind === 'thanks') return PHRASES.thanks;
  if (kind === 'farewell') return PHRASES.farewell;
  const list = toolList(tools);
  const intro = kind === 'greeting' ? PHRASES.greeting(agent) : PHRASES.capabilitiesIntro(agent);
  return `${intro}\n\n${PHRASES.canDo(list)}`;
}

/** The agent's tools with one example request each, where the tool has one this model answers. */
export function toolList(tools: ToolLike[]): string {
  return tools
    .map((t) => {
      return PHRASES.toolLine(t.name, firstSentence(t.description), exampleFor(t, tools));
    })
    .join('\n');
}

/** Examples are checked on today's date in UTC: only whether a date was read counts. */
const exampleClock = (): UserClock => ({ now: new Date(), timeZone: 'UTC' });

/**
 * A tool's example request (examples.ts), offered only when this model, with the agent's
 * tools, answers it by calling that tool with the example's values (arithmetic: a calculator), so
 * clicking it never gets "I can't do that" or the wrong tool.
 */
export function exampleFor(tool: ExampleTool, tools: ToolLike[]): string | undefined {
  const known = knownExample(tool);
  const example = known !== undefined ? { text: known, expects: {} } : derivedExample(tool);
  if (!example) return undefined;
  const routed = route(example.text, tools, exampleClock());
  if (!('toolCall' in routed)) return undefined;
  const { toolName, input } = routed.toolCall;
  const calculator = Object.values(calculatorTools(tools)).some((t) => t?.name === toolName);
  if (toolName !== tool.name) return readArithmetic(example.text) && calculator ? example.text : undefined;
  const fits = Object.entries(example.expects).every(([name, value]) =>
    isDeepStrictEqual(input[name], value),
  );
  return fits ? example.text : undefined;
}
