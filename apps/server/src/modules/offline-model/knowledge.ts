import { searchKnowledgeOutputSchema } from '@cadre/contract';
import type { JSONValue } from '@ai-sdk/provider';
import { KNOWLEDGE_PHRASES, KNOWLEDGE_QUESTIONS } from './knowledge-phrases.ts';
import { stem, wordsOf } from './tools.ts';

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

/** Words of a question that say nothing about its topic. */
const QUESTION_WORDS = new Set(
  (
    'who what whats when where why which how many much is are was were do does did can could should would ' +
    'will we our you your i me my a an the of to in on for about with and or it its this that there any get ' +
    'has have be by if at as from into than then so tell say says said'
  ).split(' '),
);

const topicWords = (text: string) =>
  new Set(
    wordsOf(text)
      .filter((w) => !QUESTION_WORDS.has(w))
      .map(stem),
  );

/** One line of plain text: Markdown headings and quote marks of the file would restyle the answer. */
const flat = (text: string) =>
  text
    .replace(/^\s*(?:#{1,6}|>+)\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim();

const cut = (text: string) =>
  text.length <= QUOTE_CHARS ? text : `${text.slice(0, QUOTE_CHARS).replace(/\s+\S*$/, '')} …`;

/**
 * The sentences of a passage that hold the question's words, in the passage's order (the best one
 * and its neighbour when that one also matches), and how many of the question's words they hold.
 */
export function matchingSentences(passage: string, question: string): { quote: string; hits: number } {
  const wanted = topicWords(question);
  const sentences = passage
    .split(/\n\s*\n|(?<=[.!?])\s+(?=[A-Z0-9"“(])|\n(?=\s*(?:[-*•]|\d+[.)])\s)/)
    .map(flat)
    .filter(Boolean);
  const hitsOf = (sentence: string) => [...topicWords(sentence)].filter((w) => wanted.has(w)).length;
  const scored = sentences.map((sentence, i) => ({ sentence, i, hits: hitsOf(sentence) }));
  const best = scored.reduce((a, b) => (b.hits > a.hits ? b : a), { sentence: '', i: -1, hits: 0 });
  if (best.hits === 0) return { quote: cut(flat(passage)), hits: 0 };
  const next = scored[best.i + 1];
  const both = next && next.hits > 0 ? `${best.sentence} ${next.sentence}` : best.sentence;
  return { quote: cut(both.length <= QUOTE_CHARS ? both : best.sentence), hits: best.hits };
}

/** How many of the question's words a passage must hold to answer it: half of them, at most two. */
const needed = (question: string) => Math.min(2, Math.max(1, Math.ceil(topicWords(question).size / 2)));

/**
 * The answer from "Search knowledge"'s output: the sentences of the best passages that hold the
 * question's words, each cited [n], then the sources; or, when no passage holds enough of them,
 * that the files do not cover it.
 */
export function knowledgeAnswer(value: JSONValue): string | undefined {
  const parsed = searchKnowledgeOutputSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const { query, passages } = parsed.data;
  if (passages.length === 0) return KNOWLEDGE_PHRASES.none(query);
  const relevant = passages
    .map((p) => ({ p, ...matchingSentences(p.text, query) }))
    .filter((m) => m.hits >= needed(query))
    .slice(0, QUOTED);
  if (relevant.length === 0) return KNOWLEDGE_PHRASES.notCovered(query);
  return [
    KNOWLEDGE_PHRASES.found,
    '',
    ...relevant.flatMap((m) => [`> ${m.quote} [${m.p.n}]`, '']),
    KNOWLEDGE_PHRASES.sources,
    ...relevant.map(({ p }) => `- ${KNOWLEDGE_PHRASES.source(p.n, p.file_name, p.passage, p.page)}`),
  ].join('\n');
}
