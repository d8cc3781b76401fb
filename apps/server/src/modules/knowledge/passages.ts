import type { ExtractedPage } from './extract.ts';
import type { KnowledgeKind } from './kinds.ts';

/** A passage as stored and cited: its number in the file, its page (PDF) and its text. */
export interface Passage {
  ordinal: number;
  page: number | null;
  text: string;
}

/** About a paragraph or two: long enough to answer from, short enough to cite and to embed. */
export const PASSAGE_CHARS = 1_200;

/**
 * Cuts a file's text into passages of at most PASSAGE_CHARS characters, on the largest boundary
 * that fits: blank lines (paragraphs, Markdown sections), then lines, then sentences, then words.
 * A PDF's passages never span pages, so each cites one page. A CSV passage starts with the header
 * row, so each one still says what its columns are.
 */
export function splitPassages(kind: KnowledgeKind, pages: ExtractedPage[]): Passage[] {
  const passages: Passage[] = [];
  for (const { page, text } of pages) {
    const chunks = kind === 'csv' ? csvChunks(text) : packed(pieces(normalise(text), 0));
    for (const chunk of chunks) passages.push({ ordinal: passages.length + 1, page, text: chunk });
  }
  return passages;
}

const normalise = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f\v]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

const BOUNDARIES = [/\n\n/, /\n/, /(?<=[.!?;:])\s+/, /\s+/];

/** The text cut on the coarsest boundary that makes pieces short enough, recursively. */
function pieces(text: string, level: number): string[] {
  if (text.length <= PASSAGE_CHARS) return text ? [text] : [];
  const boundary = BOUNDARIES[level];
  if (!boundary) {
    const cut: string[] = [];
    for (let i = 0; i < text.length; i += PASSAGE_CHARS) cut.push(text.slice(i, i + PASSAGE_CHARS));
    return cut;
  }
  return text
    .split(boundary)
    .map((part) => part.trim())
    .filter(Boolean)
    .flatMap((part) => pieces(part, level + 1));
}

/** Neighbouring pieces joined while they fit, so passages are neither tiny nor too long. */
function packed(parts: string[]): string[] {
  const out: string[] = [];
  let current = '';
  for (const part of parts) {
    if (current && current.length + 2 + part.length > PASSAGE_CHARS) {
      out.push(current);
      current = part;
    } else current = current ? `${current}\n\n${part}` : part;
  }
  if (current) out.push(current);
  return out;
}

function csvChunks(text: string): string[] {
  const [header = '', ...rows] = normalise(text).split('\n');
  if (rows.length === 0) return header ? [header] : [];
  return packed(rows.flatMap((row) => pieces(row, 3))).map(
    (chunk) => `${header}\n${chunk.replace(/\n\n/g, '\n')}`,
  );
}
