import sentences from './labelled-sentences.json' with { type: 'json' };
import type { PhraseRow, Toolkit } from './phrase-table.ts';

/**
 * The labelled set of sentences (labelled-sentences.json): what people type to a newcomer's agent,
 * by intent, with typos and paraphrases, written as different people would type them and not tuned
 * to the parser. `npm run bench:phrasing` reports the share answered right and
 * `offline-labelled.unit.test.ts` keeps it above a floor. Each row names the agent's tools by a kit:
 */
const KITS = {
  calculator: ['calculator'],
  notes: ['notes'],
  basics: ['calculator', 'notes'],
  organizer: ['notes', 'calendar'],
  clock: ['date and time'],
  knowledge: ['knowledge'],
  library: ['knowledge', 'notes'],
} satisfies Record<string, Toolkit[]>;

export const INTENTS = [
  'arithmetic',
  'notes',
  'calendar',
  'dates',
  'knowledge',
  'small talk',
  'refusal',
] as const;
export type Intent = (typeof INTENTS)[number];

interface Sentence {
  intent: Intent;
  kit: keyof typeof KITS;
  say: string;
  call?: string;
  args?: Record<string, unknown>;
  /** For arithmetic: the value the calculator's call must compute (Evaluate, or Add and its kin). */
  result?: number;
  reply?: string;
}

export type LabelledRow = Pick<PhraseRow, 'tools' | 'say' | 'call' | 'args' | 'result' | 'reply'> & {
  intent: Intent;
  say: string;
};

/** The rows as the phrase table's runner and judge read them (run-row.ts). */
export const LABELLED: LabelledRow[] = (sentences as Sentence[]).map((s) => ({
  intent: s.intent,
  tools: KITS[s.kit],
  say: s.say,
  call: s.call,
  args: s.args,
  result: s.result,
  reply: s.reply,
}));
