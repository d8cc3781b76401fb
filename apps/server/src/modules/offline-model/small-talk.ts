import { FILLER, SMALL_TALK_WORDS } from './vocabulary.ts';

/**
 * Small talk ("thanks a lot mate", "ok bye", "who am I talking to?", "what can you help me with"):
 * a message made only of small-talk words and filler, of the first kind whose words it holds.
 * Typos are corrected before (spelling.ts); a message with any other word is a request.
 */

export type SmallTalk = keyof typeof SMALL_TALK_WORDS;

const KINDS = Object.keys(SMALL_TALK_WORDS) as SmallTalk[];
const ALL = new Set(Object.values(SMALL_TALK_WORDS).flat());

export function smallTalkOf(message: string): SmallTalk | undefined {
  if (/\d/.test(message)) return undefined;
  // "that's all for today", "I'm done": the end of the conversation.
  const farewell = /\b(?:that'?s all|that is all|i'?m done|i am done|see (?:ya|you)|catch you)\b/i.test(
    message,
  );
  const words = message
    .toLowerCase()
    .replace(/[’]/g, "'")
    .split(/[^a-z']+/)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
  if (words.length === 0 || words.length > 10) return undefined;
  if (!words.every((w) => ALL.has(w) || FILLER.has(w))) return undefined;
  if (farewell) return 'farewell';
  const said = new Set(words);
  // "what are you" asks who this is; "what can you do" what it can do.
  if (said.has('what') && said.has('are') && said.has('you') && words.length <= 4 && !said.has('doing'))
    return 'identity';
  return KINDS.find((kind) => SMALL_TALK_WORDS[kind].some((w) => said.has(w)));
}
