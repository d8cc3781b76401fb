import { NUMBER_WORDS } from './arithmetic.ts';

/** The words the offline model reads as small talk and as keywords (small-talk.ts, spelling.ts). */

/**
 * Small talk, by its words (small-talk.ts): a message of only these words (and FILLER) is small
 * talk of the first kind whose words it holds, in this order.
 */
export const SMALL_TALK_WORDS = {
  farewell: ['bye', 'goodbye', 'later', 'night', 'farewell', 'ciao', 'cya'],
  thanks: ['thanks', 'thank', 'thx', 'ty', 'cheers', 'appreciated', 'appreciate', 'tanks', 'thankyou'],
  identity: [
    'who',
    'name',
    'bot',
    'human',
    'robot',
    'ai',
    'yourself',
    'introduce',
    'person',
    'real',
    'talking',
    'gpt',
    'chatgpt',
    'claude',
  ],
  capabilities: ['help', 'can', 'tools', 'able', 'use', 'work', 'ask', 'capabilities', 'features'],
  greeting: [
    'hi',
    'hello',
    'hey',
    'heyy',
    'hiya',
    'howdy',
    'yo',
    'greetings',
    'morning',
    'afternoon',
    'evening',
    'sup',
    'how',
    'doing',
    'up',
    'going',
  ],
};
/** Words small talk carries around its own ("thanks a lot mate", "ok bye for now"). */
export const FILLER = new Set(
  (
    'a an the ok okay so well and very much lot bunch great perfect awesome nice cool good one mate ' +
    "you u ya your are am is i me what whats what's that that's this it for today now there all " +
    'everyone team cadre again really super oh with to my have an of do does see catch tomorrow done pls plz'
  ).split(/[\s,]+/),
);

/** Words the offline model reads beyond its synonyms, small talk and stop words (spelling.ts). */
export const WORDS_READ = [
  ...(
    'times plus minus divided divide multiply multiplied subtract calculate compute percent squared cubed ' +
    'square root power sum total half twice double equals'
  ).split(' '),
  // The number words arithmetic.ts reads as digits.
  ...NUMBER_WORDS,
  ...(
    'today tomorrow tonight yesterday week weekday weekend month year time date days hours minutes weeks months ' +
    'years calendar schedule agenda monday tuesday wednesday thursday friday saturday sunday january february ' +
    'march april june july august september october november december noon midnight ' +
    'note notes notebook remember remind reminder write jot delete remove rename change event events meeting ' +
    'meetings appointment search find show list what when where which whats documents files docs doc pdf ' +
    'policy handbook manual guide contract faq'
  ).split(' '),
];

/**
 * Common words a typo correction must leave alone, though one letter from a keyword ("last" is not
 * "list", "room" not "root", "nice" not "nine").
 */
export const COMMON_WORDS = (
  'last past fast most must just best rest test west next text late lots love live life like line ' +
  'room roof root boot book look took cook good food mood wood word work worn won want went ' +
  'nice mine fine wine line pine time tile tale take make cake lake sale sure pure ' +
  'then than them they these those there their where were here here hear near dear year ' +
  'noon moon soon seen sent sell tell well fell feel feet meet meat seat sets says saw ' +
  'sure mind kind find fund hand band land sand send lend mend tend ' +
  'call fall tall wall mall hall ball bill fill will kill mill pill ' +
  'ever even over open oven once only ones done gone none bone home hope rope note vote ' +
  'shop stop step stay play pray plan plant plans planet place plate price prize print ' +
  'please pleased plenty plus plug plum fridge bridge ridge friend fries fresh'
).split(' ');
