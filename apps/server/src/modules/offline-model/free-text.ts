import { COMMAND_PREFIX, DOCUMENT_NOUNS, EDGE_WORDS, PLACE_SUFFIX } from './phrases.ts';
import { nameWords, stem, vocabulary } from './tools.ts';

/**
 * The request without its command words: "remind me to call Sam" → "call Sam", and without a lead
 * naming what the tool reads ("the Wikipedia article on Ada Lovelace" → "Ada Lovelace").
 */
export function freeText(text: string, toolName?: string): string {
  // "make a note: book the car service", "jot this down - gate code is 4521": after a short command
  // and a colon or dash, the rest is the content, command words and all.
  const told = /^([^:\d"“]{1,40}?)(?::|\s[-–—])\s+(.+)$/.exec(text.trim());
  if (told && told[1]!.trim().split(/\s+/).length <= 8) return tidyEnds(told[2]!);
  const topic = searchTopic(text, toolName);
  if (topic) return topic;
  const own = new Set(toolName ? nameWords(toolName) : []);
  // Only the kinds of document a tool reads: "the latest news about X" keeps its words.
  const nouns = toolName
    ? [...vocabulary({ name: toolName, inputSchema: {} })].filter((w) => DOCUMENT_NOUNS.has(w))
    : [];
  const lead = nouns.length
    ? new RegExp(
        `^(?:(?:the|a|an)\\s+)?(?:\\S+\\s+){0,2}?(?:${nouns.join('|')})s?\\s+(?:on|about|of|for)\\s+`,
        'i',
      )
    : undefined;
  const edge = (w: string) => {
    const bare = w.toLowerCase().replace(/[^a-z0-9']/g, '');
    return bare === '' || EDGE_WORDS.has(bare) || own.has(stem(bare));
  };
  let out = text.replace(/\s+/g, ' ').trim();
  for (let i = 0; i < 4; i++) {
    const command = out.replace(COMMAND_PREFIX, '').replace(PLACE_SUFFIX, '').trim();
    const words = (lead ? command.replace(lead, '') : command).split(' ').filter(Boolean);
    // "remind me about the car MOT": an article after a cut preposition goes with it.
    while (words.length && edge(words[0]!)) {
      const cut = words.shift()!;
      if (PREPOSITIONS.has(cut.toLowerCase()) && /^(the|a|an)$/i.test(words[0] ?? '')) words.shift();
    }
    while (words.length && (edge(words.at(-1)!) || /^the$/i.test(words.at(-1)!))) words.pop();
    const cut = words.join(' ');
    if (cut === out) break;
    out = cut;
  }
  return tidyEnds(out);
}

const tidyEnds = (text: string) =>
  text
    .replace(/^[\s:,;.\-–—]+|[\s:,;\-–—]+$/g, '')
    .replace(/[.!?]+$/, '')
    .trim();

const PREPOSITIONS = new Set([
  'about',
  'for',
  'of',
  'on',
  'with',
  'to',
  'regarding',
  'concerning',
  'mentioning',
]);

/**
 * What a search of one's own records is for: "find my note about the passport", "did I write
 * anything about the plumber", "search my calendar for physio" — the words after the last
 * "about", "for", "mentioning"… when the words before name the records (or "anything").
 */
function searchTopic(text: string, toolName?: string): string | undefined {
  if (!toolName) return undefined;
  const words = nameWords(toolName);
  const object = words.at(-1);
  if (!words.includes('search') || !object || object === 'search') return undefined;
  const records = vocabulary({ name: object, inputSchema: {} });
  const said = text.trim().replace(PLACE_SUFFIX, '');
  // The first "about", "for"… after a word naming the records.
  for (const marker of said.matchAll(
    /\b(?:about|for|mentioning|containing|regarding|concerning|on|with|has|have|says?)\s+/gi,
  )) {
    const before = said
      .slice(0, marker.index)
      .toLowerCase()
      .split(/[^a-z']+/)
      .filter(Boolean);
    if (!before.some((w) => records.has(stem(w)) || /^(anything|something)$/.test(w))) continue;
    const topic = tidyEnds(said.slice(marker.index + marker[0].length).replace(/^(?:the|a|an|my)\s+/i, ''));
    if (topic) return topic;
  }
  return undefined;
}
