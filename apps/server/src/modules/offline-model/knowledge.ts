import { searchKnowledgeOutputSchema } from '@cadre/contract';
import type { JSONValue } from '@ai-sdk/provider';
import { KNOWLEDGE_PHRASES, KNOWLEDGE_QUESTIONS } from './knowledge-phrases.ts';

/** How the offline model asks the agent's files and reports what they say, citing each passage. */

/** The topic of a question about the agent's files, or undefined when the message is not one. */
export function knowledgeTopic(message: string): string | undefined {
  const said = message.trim().replace(/[?!.]+$/, '');
  for (const pattern of KNOWLEDGE_QUESTIONS) {
    const topic = pattern
      .exec(said)
      ?.groups?.topic?.trim()
      .replace(/^["“'](.*)["”']$/, '$1');
    if (topic) return topic;
  }
  return undefined;
}

/** Passages are quoted up to this many characters, cut at a word. */
const QUOTE_CHARS = 400;
const QUOTED = 3;

const quote = (text: string) => {
  // One line of plain text: Markdown headings and quote marks of the file would restyle the answer.
  const flat = text
    .replace(/^\s*(?:#{1,6}|>+)\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (flat.length <= QUOTE_CHARS) return flat;
  return `${flat.slice(0, QUOTE_CHARS).replace(/\s+\S*$/, '')} …`;
};

/** The answer from "Search knowledge"'s output: the best passages quoted, each cited [n], then the sources. */
export function knowledgeAnswer(value: JSONValue): string | undefined {
  const parsed = searchKnowledgeOutputSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const { query, passages } = parsed.data;
  if (passages.length === 0) return KNOWLEDGE_PHRASES.none(query);
  const used = passages.slice(0, QUOTED);
  return [
    KNOWLEDGE_PHRASES.found,
    '',
    ...used.flatMap((p) => [`> ${quote(p.text)} [${p.n}]`, '']),
    KNOWLEDGE_PHRASES.sources,
    ...used.map((p) => `- ${KNOWLEDGE_PHRASES.source(p.n, p.file_name, p.passage, p.page)}`),
  ].join('\n');
}
