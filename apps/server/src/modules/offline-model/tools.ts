import type { JSONSchema7 } from '@ai-sdk/provider';
import Fuse from 'fuse.js';
import { STOP_WORDS, SYNONYMS } from './phrases.ts';
import { numberWords } from './arithmetic.ts';

/** How the offline model picks the tool a request is about. */

export interface ToolLike {
  name: string;
  description?: string;
  inputSchema: JSONSchema7;
}

/** Lower-case word stems: "Notes" → "note", "refunded" → "refund", "what's" → "whats". */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/['’]/g, '');
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 5 && /(ch|sh|x|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) {
    // "meetings" → "meeting" → "meet", as "meeting" itself stems.
    return stem(w.slice(0, -1));
  }
  return w;
}

/**
 * The part of a request that says what to do: not the content after "called …" or a colon, not
 * quoted text; and common phrasings said in a tool's words ("what's on my calendar" → list).
 */
function asked(message: string, whole = false): string {
  const unquoted = message.toLowerCase().replace(/"[^"]*"|“[^”]*”/g, ' ');
  const command = whole ? unquoted : unquoted.split(/\b(?:called|titled|named|saying|that says)\b|:/)[0]!;
  const counted = numberWords(command);
  // A time an amount away ("the date in 90 days", "3 months from now") is a date to work out, not
  // the current time; "from now until June" counts from now.
  const relative = counted.search(RELATIVE_AMOUNT) >= 0;
  return (
    counted
      .replace(RELATIVE_AMOUNT, ' add date ')
      .replace(/\b(?:from|since) (?:now|today)\b/g, ' ')
      // "how many days", "count the weeks": units counted, not a day or week named.
      .replace(/\b(?:minute|hour|day|week|month|year)s\b/g, ' ')
      .replace(/\bwhat(?:'|’)?s on\b|\bwhat is on\b|\bdo i have\b|\bwhat are my\b/g, ' list ')
      .replace(
        /\bwhat(?:'|’)?s my (?:day|week|schedule|agenda)\b|\bwhat (?:is|does) my (?:day|week|schedule)\b/g,
        ' list event ',
      )
      .replace(
        /\bwhat time is it\b|\bwhat(?:'|’)?s the (?:time|date)\b|\bwhat is the (?:time|date)\b|\bcurrent (?:time|date)\b|\btime (?:in|now)\b|\btoday'?s date\b|\bwhat date is it\b/g,
        relative ? ' ' : ' now ',
      )
      .replace(/\bget rid of\b/g, ' delete ')
      // "when is my dentist appointment": one record found by its topic, not the next one in time.
      .replace(
        /\bwhen(?:'s| is| are| was)\s+(?=(?:my|the|our)\s+(?!(?:next|first|last|earliest|latest)\b)\w)/g,
        ' search ',
      )
      .replace(
        /\bwhich (?:note|event|meeting)s? (?:has|have|mentions?|contains?|says?)\b|\banything (?:about|on)\b/g,
        ' search ',
      )
      .replace(/\b(?:write|jot|note|put) (?:this |that |it )?down\b|\btake a note\b/g, ' note ')
      .replace(
        /\btell me (?:more )?about\b|\bwhat do you know about\b|\binfo(?:rmation)? (?:on|about)\b/g,
        ' research lookup ',
      )
  );
}

const RELATIVE_AMOUNT =
  /\b(?:in|after)\s+\d+\s+(?:minute|hour|day|week|month|year)s?\b(?:\s+(?:from\s+(?:now|today)|later|ahead|time))?|\b\d+\s+(?:minute|hour|day|week|month|year)s?\s+(?:from\s+(?:now|today)|later|ahead|hence)\b/g;

export const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !/^\d+$/.test(w));

const contentWords = (text: string) =>
  wordsOf(text)
    .filter((w) => !STOP_WORDS.has(w))
    .map(stem);

/** The words of a tool's name ("create_note" → create, note). */
export const nameWords = (name: string) => wordsOf(name.replace(/([a-z])([A-Z])/g, '$1 $2')).map(stem);

const SYNONYM_STEMS = new Map(
  Object.entries(SYNONYMS).map(([key, list]) => [stem(key), new Set(list.map(stem))]),
);

/** What a tool is called and asked for in words: its name words and their synonyms. */
export function vocabulary(tool: ToolLike): Set<string> {
  const words = new Set(nameWords(tool.name));
  for (const w of [...words]) for (const s of SYNONYM_STEMS.get(w) ?? []) words.add(s);
  return words;
}

/** A request as every tool is scored against it: read once per ranking, not once per tool. */
interface Request {
  /** The whole request in a tool's words, between spaces: whole words name a tool. */
  command: string;
  /** The content words of what it asks, in the order said. */
  said: Set<string>;
  /** "book me a table", "find me a flight": something got for the person. */
  getsMeSomething: boolean;
}

function readRequest(message: string, whole: boolean): Request {
  const command = asked(message);
  const all = asked(message, true);
  return {
    // Whole words: "now" is named by "3 months from now" only as part of a date.
    command: ` ${all.replace(/\s+/g, ' ')} `,
    said: new Set(contentWords(whole ? all : command)),
    getsMeSomething: /\b\w+ me (?:a|an|some)\b/.test(command),
  };
}

/** The first sentence of a tool's description: what it does. */
export const firstSentence = (description: string | undefined) =>
  (description ?? '').split(/(?<=\.)\s/)[0] ?? '';

/** How well a request asks for a tool: naming it wins; name words 3, synonyms 2, description words 1. */
function scoreTool({ command, said, getsMeSomething }: Request, tool: ToolLike): number {
  const name = tool.name.toLowerCase();
  const named = [name, name.replace(/[_.-]+/g, ' ')].some((n) => command.includes(` ${n} `));
  let score = named ? 10 : 0;
  const names = new Set(nameWords(tool.name));
  const description = new Set(contentWords(firstSentence(tool.description)).filter((w) => w.length >= 4));
  const fuse = new Fuse([...names], { threshold: 0.25, includeScore: true, minMatchCharLength: 5 });
  let fromDescription = 0;
  // The head of the name ("refund" of issue_refund, "policy" of get_refund_policy) tells apart
  // tools that share their other words.
  const head = nameWords(tool.name).at(-1);
  if (head && said.has(head)) score += 1;
  const [verb, ...objects] = nameWords(tool.name);
  let aboutTool = score > 0;
  const verbSynonyms: string[] = [];
  for (const word of said) {
    const synonymOf = [...names].filter((n) => SYNONYM_STEMS.get(n)?.has(word));
    if (names.has(word)) score += 3;
    else if (synonymOf.length > 0) score += 2 * synonymOf.length;
    else if (description.has(word) && fromDescription < 3) {
      score += 1;
      fromDescription++;
    } else if (word.length >= 6 && fuse.search(word).length > 0) score += 2;
    else continue;
    if (names.has(word) || synonymOf.some((n) => n !== verb)) aboutTool = true;
    else verbSynonyms.push(word);
  }
  if (aboutTool || !ACTIONS.has(verb!) || objects.length === 0 || verbSynonyms.length === 0) return score;
  // Only words like the tool's verb, none of what it acts on: they ask for it when said first as
  // the command ("save this: …", "remind me to …"), not as another word ("recommend a good book",
  // "buy me a new charger") nor to get the person something ("book me a table", "find me a flight").
  const first = [...said][0]!;
  return verbSynonyms.includes(first) && !getsMeSomething ? score : 0;
}

/** The first words of tool names that say what they do to the rest ("create_note", "list_events"). */
const ACTIONS = new Set(
  ['create', 'add', 'make', 'save', 'new', 'list', 'search', 'find', 'get', 'read', 'delete', 'update'].map(
    stem,
  ),
);

/** Below this, a request is not about the tool (one description word is not enough). */
export const MIN_SCORE = 2;

/**
 * The tools a message asks for, best first; ties go to the tool whose required arguments the
 * message supplies (`satisfied`), then to the agent's order.
 */
export function rankTools<T extends ToolLike>(
  message: string,
  tools: T[],
  satisfied: (tool: T) => boolean = () => true,
  bonus: (tool: T) => number = () => 0,
): T[] {
  const score = (whole: boolean) => {
    const request = readRequest(message, whole);
    return tools
      .map((tool, index) => ({ tool, index, score: scoreTool(request, tool) }))
      .filter((e) => e.score >= MIN_SCORE);
  };
  // "I insist: refund ORD-1002" says what to do after the colon: then read the whole message.
  const scored = score(false);
  return (scored.length > 0 ? scored : score(true))
    .map((e) => ({ ...e, score: e.score + bonus(e.tool) }))
    .map((e) => ({ ...e, fits: satisfied(e.tool) ? 1 : 0 }))
    .sort((a, b) => b.score - a.score || b.fits - a.fits || a.index - b.index)
    .map((e) => e.tool);
}

export const bestTool = <T extends ToolLike>(
  message: string,
  tools: T[],
  satisfied?: (tool: T) => boolean,
  bonus?: (tool: T) => number,
) => rankTools(message, tools, satisfied, bonus)[0];

/** The calculator-like tools an agent has, by the operation they run. */
export function calculatorTools<T extends ToolLike>(tools: T[]) {
  // "add", "calculator_add", "get-sum": the operation is the name or its last word.
  const find = (...names: string[]) =>
    tools.find((t) => {
      const name = t.name.toLowerCase().replace(/-/g, '_');
      return names.some((n) => name === n || name.endsWith(`_${n}`));
    });
  return {
    evaluate: tools.find(
      (t) =>
        /(^|_)(evaluate|calculate|calc|compute|calculator|eval|math)(_expression)?$/i.test(t.name) &&
        Object.values(t.inputSchema.properties ?? {}).some(
          (p) => typeof p === 'object' && p.type === 'string',
        ),
    ),
    add: find('add', 'sum', 'get_sum', 'plus'),
    subtract: find('subtract', 'minus'),
    multiply: find('multiply', 'times', 'product'),
    divide: find('divide'),
    power: find('power', 'pow'),
    sqrt: find('sqrt', 'square_root'),
    percent: find('percent', 'percentage'),
  };
}
