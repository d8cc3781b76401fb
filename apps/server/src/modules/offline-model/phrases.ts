/**
 * Everything the built-in offline model says, and the English it reads, as data: the model logic
 * (intents.ts and its helpers) picks a phrase and fills in tool names, inputs and results.
 */

import { OFFLINE_LABEL } from './names.ts';

/** Words that never pick a tool (they appear in almost every request). */
export const STOP_WORDS = new Set(
  (
    'a an and the to of for in on at by with from into about please can could would will you me my i ' +
    'is are be it this that what how do does some using use run tell give get want need ' +
    "i'd i'm id im let lets let's just quick quickly kindly hey yes ok okay there here your our us " +
    'up out off over any one'
  ).split(' '),
);

/** Small talk the offline model answers without a tool (the whole message, once trimmed). */
export const SMALL_TALK: Array<{
  kind: 'greeting' | 'thanks' | 'capabilities' | 'farewell';
  pattern: RegExp;
}> = [
  {
    kind: 'greeting',
    pattern:
      /^(hi|hello|hey|hiya|howdy|yo|greetings|good (morning|afternoon|evening|day)|morning|evening)( there| all| everyone| team| cadre)?( how are you( doing)?| what'?s up)?$/,
  },
  { kind: 'greeting', pattern: /^(how are you( doing| today)?|what'?s up|sup)$/ },
  {
    kind: 'thanks',
    pattern:
      /^(thanks?( you)?( so much| very much| a lot| a bunch)?|thx|ty|cheers|great( thanks)?|perfect( thanks)?|awesome( thanks)?|nice|cool|ok(ay)? thanks?)$/,
  },
  { kind: 'farewell', pattern: /^(bye|goodbye|see you|see ya|good night|that'?s all( for now)?)$/ },
  {
    kind: 'capabilities',
    pattern:
      /^(help|what can you do|what do you do|what are you|who are you|what can i (ask|do)|how does this work|how do i use (this|you)|what tools do you have|what are your tools|show me what you can do|what are you able to do|are you (gpt|chatgpt|claude|an ai)[\w\s.-]*)$/,
  },
];

/** Requests to drop a pending question. */
export const CANCEL = /^(never ?mind|cancel|forget it|stop|no thanks?|nothing)$/;

/**
 * What a person would ask each well-known tool (built-in and demo), with real values: the empty
 * chat's starters and the capabilities answer offer these, and the phrase table checks that this
 * model answers each one with its tool. Other tools get one made from their name and inputs
 * (examples.ts).
 */
export const TOOL_EXAMPLES: Record<string, string> = {
  add: 'add 9 and 33',
  subtract: 'subtract 8 from 50',
  multiply: 'what is 12 times 7?',
  divide: 'divide 250 by 4',
  power: '2 to the power of 10',
  sqrt: 'square root of 81',
  percent: "what's 20% of 45",
  evaluate: 'what is (3 + 4) * 2?',
  now: 'what time is it now in Asia/Tokyo?',
  convert_time: 'convert 2026-03-09 15:00 from Europe/Paris to America/New_York',
  add_to_date: 'add 3 weeks to the date 2026-03-09',
  day_of_week: 'what day of the week is 2026-12-25?',
  difference: 'how long is it from 2026-01-01 to 2026-03-09?',
  create_note: 'note down: call the bank',
  list_notes: 'show my notes',
  search_notes: 'search my notes for "bank"',
  get_note: 'read note 1',
  update_note: 'rename note 1 to "Shopping list"',
  delete_note: 'delete note 1',
  create_event: 'remind me tomorrow at 3pm to call Sam',
  list_events: 'what is on my calendar',
  search_events: 'search my calendar for "dentist"',
  update_event: 'move event 1 to Friday at 10am',
  delete_event: 'delete event 1',
  find_free_slots: 'when am I free tomorrow?',
  export_ics: 'export my calendar as an .ics file',
  read_page: 'read https://example.com',
  top_stories: 'what are the top stories on Hacker News?',
  new_stories: 'show the newest stories on Hacker News',
  best_stories: 'show the best stories on Hacker News',
  get_item: 'open Hacker News item 8863',
  page_summary: 'summarise the Wikipedia article on Ada Lovelace',
  web_search: 'search the web for trail running shoes',
  search_videos: 'find videos about sourdough bread on YouTube',
  search_places: 'find vegetarian restaurants in Lyon',
  current_weather: "what's the weather in Paris?",
  list_repos: 'list my GitHub repositories',
  list_issues: 'list the open issues in octocat/hello-world',
  create_issue: 'open an issue in octocat/hello-world titled "Fix the login bug"',
  lookup_order: 'look up order ORD-1042',
  lookup_customer: 'find customer maya.lindgren@example.com',
  get_refund_policy: "what's the refund policy?",
  issue_refund: 'refund order ORD-1042',
  open_ticket: 'open a ticket: the tent in ORD-1030 arrived with a broken pole',
  find_leads: 'find leads in healthcare',
  research_lead: 'research Brightwater Clinics',
  draft_outreach_email: 'draft an outreach email to Brightwater Clinics',
  log_activity: 'log a call with Brightwater Clinics',
  search_startups: 'search startups in fintech',
  compare_startups: 'compare Novapay and Ledgerline',
  draft_investment_memo: 'draft an investment memo for Cortexa',
  search_knowledge: 'what do the files say about refunds?',
};

/** Names several services use, told apart by the service their description names. */
export const SHARED_NAME_EXAMPLES: Record<string, Array<[service: RegExp, example: string]>> = {
  search: [
    [/\bwikipedia\b/i, 'search Wikipedia for "Ada Lovelace"'],
    [/\bhacker news\b/i, 'search Hacker News for "rust"'],
  ],
};

/**
 * Sample values for the inputs of a tool with no example, by what the input is: an example
 * request made with them reads as something a person would ask (never a field's name).
 */
export const SAMPLE_VALUES = {
  email: 'ana@example.com',
  url: 'https://example.com',
  place: 'Paris',
  country: 'France',
  language: 'French',
  timeZone: 'Europe/Paris',
  date: 'tomorrow',
  title: 'Team lunch',
  message: 'See you at noon',
  latitude: 48.85,
  longitude: 2.35,
  count: 5,
  owner: 'octocat',
  repo: 'hello-world',
};

/** First words of a tool's name that make its example a request ("send email to …"). */
export const REQUEST_VERBS = new Set(
  (
    'add archive ask book calculate cancel check close comment compare convert count create delete draft ' +
    'edit email export fetch find forward generate get invite issue list log look lookup mark merge move ' +
    'open play post publish read remove rename reply research run save schedule search send set share ' +
    'show start stop summarise summarize track translate update upload write'
  ).split(' '),
);

/** Verbs whose example is not a starter: a starter is something to try, not something to undo. */
export const DESTRUCTIVE_VERBS = new Set(['delete', 'remove', 'cancel', 'close', 'archive', 'drop']);

/**
 * Words a request uses for a tool's verb or object, beyond the words of its name: "jot down" means
 * create, "google" means search. Keys are words of tool names.
 */
export const SYNONYMS: Record<string, string[]> = {
  create: [
    'new',
    'make',
    'add',
    'save',
    'jot',
    'down',
    'record',
    'start',
    'open',
    'set',
    'schedule',
    'book',
    'remind',
    'reminder',
    'plan',
  ],
  note: ['notes', 'memo', 'jot', 'remember', 'notepad'],
  event: [
    'events',
    'meeting',
    'appointment',
    'calendar',
    'remind',
    'reminder',
    'schedule',
    'book',
    'lunch',
    'dinner',
    'call',
  ],
  list: ['show', 'list', 'all', 'view', 'display', 'upcoming', 'agenda', 'have'],
  search: ['find', 'look', 'lookup', 'google', 'search', 'seek', 'query', 'result', 'results'],
  web: ['web', 'internet', 'online', 'google', 'news'],
  get: ['read', 'open', 'show', 'fetch', 'view'],
  delete: ['remove', 'delete', 'drop', 'erase', 'trash'],
  update: ['change', 'edit', 'rename', 'update', 'modify', 'move', 'reschedule', 'postpone'],
  lookup: ['look', 'lookup', 'find', 'check', 'where', 'status', 'track', 'tracking'],
  order: ['order', 'orders', 'purchase', 'package', 'delivery'],
  customer: ['customer', 'client', 'buyer', 'account'],
  refund: ['refund', 'money', 'reimburse', 'return', 'refunded'],
  policy: ['policy', 'policies', 'rules', 'returns'],
  ticket: ['ticket', 'complaint', 'escalate', 'case', 'support'],
  leads: ['leads', 'prospects', 'prospect', 'companies', 'accounts'],
  research: ['research', 'tell', 'about', 'profile', 'background', 'investigate'],
  draft: ['draft', 'write', 'compose', 'prepare'],
  email: ['email', 'mail', 'message', 'outreach'],
  log: ['log', 'record', 'track', 'note'],
  activity: ['activity', 'call', 'meeting', 'called', 'met'],
  startups: ['startups', 'startup', 'companies', 'deals', 'deal'],
  compare: ['compare', 'versus', 'vs', 'against', 'comparison'],
  memo: ['memo', 'investment', 'writeup'],
  read: ['read', 'open', 'fetch', 'summarise', 'summarize'],
  page: ['page', 'url', 'website', 'site', 'link', 'article'],
  now: ['time', 'clock', 'date', 'today'],
  weather: ['weather', 'forecast', 'temperature', 'rain', 'sunny'],
  difference: ['long', 'between', 'until', 'since', 'elapsed', 'apart'],
};

/** Words trimmed from the edges of free text ("a meeting with Ana" → "meeting with Ana"). */
export const EDGE_WORDS = new Set(
  'a an to of for in on at by with from into about please me my i you it this that some and or so then just now saying'.split(
    ' ',
  ),
);

/** Leading phrases that say what to do, not what with: cut from free text ("note down: X" → X). */
export const COMMAND_PREFIX =
  /^(?:(?:please|hey|ok|okay|can you|could you|would you|will you|i want you to|i'd like you to|i need you to|i need to|i want to|help me)\s+)*(?:(?:note down|jot down|write down|take (?:a |down a )?note(?: of)?|make (?:a )?note(?: of)?|add (?:a )?note|create (?:a )?note|new note|save (?:a )?note|remember|remind me|set (?:a )?reminder|add (?:a )?reminder|create (?:a |an )?(?:event|reminder|appointment|meeting)|schedule|book|put|add|open (?:a |an )?(?:support )?ticket|file (?:a |an )?ticket|create (?:a |an )?ticket|log (?:a |an )?(?:call|meeting|email|note)?|search(?: the web| online| the internet)?(?: for)?|tell me (?:more )?about|what do you know about|google|look up|lookup|find|show(?: me)?|give me|get me|list|research|draft (?:an? )?(?:outreach )?email to|draft|read|summari[sz]e|compare|refund|issue (?:a )?refund for)\b\s*(?:(?:that|to|about|for|on|called|titled|named|saying|with)\b\s*)?[:\-–—]?\s*)/i;

/** What a tool may read, said before what it is about ("the Wikipedia article on …"): word stems. */
export const DOCUMENT_NOUNS = new Set(['article', 'page', 'entry', 'post', 'story', 'video', 'summary']);

/** Trailing phrases that only say where something goes ("… to my calendar"). */
export const PLACE_SUFFIX =
  /\s*(?:(?:to|in|on|into)\s+(?:my|the)\s+(?:calendar|agenda|notes?|notebook|diary|list)|(?:on|from|in)\s+(?:wikipedia|hacker news|youtube|github|google(?: maps)?|the web|the internet)|please|thanks?|for me|now)\s*[.!?]*$/i;

/** `tool` is the markdown-ready tool name (`**name**` in results); `example` an example request. */
export const PHRASES = {
  nothingMore: 'I am the offline model and have nothing more to add.',
  noTools:
    `${OFFLINE_LABEL}.\n\nI am Cadre's built-in offline model: I can only run the tools attached to ` +
    'this agent, and this agent has none. Attach tools to the agent, or ask your administrator to ' +
    'configure an LLM provider for full answers.',
  greeting: (agent: string) => `Hello! I am ${agent}, running on Cadre's built-in offline model.`,
  thanks: "You're welcome!",
  farewell: 'Goodbye! Come back any time.',
  capabilitiesIntro: (agent: string) => `I am ${agent}, running on Cadre's built-in offline model.`,
  canDo: (list: string) => `Here is what I can do, with an example of each:\n\n${list}`,
  toolLine: (name: string, description: string, example: string | undefined) =>
    `- **${name}**${description ? ` — ${description}` : ''}${example ? ` Try: “${example}”` : ''}`,
  cannot: (list: string) =>
    `${OFFLINE_LABEL}.\n\nI can't do that with this agent's tools, and as the offline model I only run ` +
    `tools. Here is what I can do:\n\n${list}`,
  askFor: (tool: string, fields: string[], hints: string[]) =>
    `To run **${tool}** I need ${fields.map((f) => `the **${f}**`).join(' and ')}` +
    `${hints.length ? ` (${hints.join('; ')})` : ''}. What should I use?`,
  cancelled: (tool: string) => `OK, I won't run **${tool}**.`,
  resultsHeader: '',
  denied: (tool: string, reason: string | undefined) =>
    `${tool} was not run: you denied it${reason ? ` (${reason})` : ''}.`,
  failed: (tool: string, text: string) => `${tool} failed: ${text}`,
  failedWith: (tool: string) => `${tool} failed:`,
  returned: (tool: string) => `${tool} returned:`,
  unshowable: (tool: string) => `${tool} returned a result I cannot show.`,
  nothingToReport: (messages: number) => `Nothing to report (${messages} messages so far).`,
} as const;

/**
 * Questions about the agent's own files ("according to my documents, …", "what do the files say
 * about …"): the named group is what to search for.
 */
const FILES = String.raw`(?:my|the|our|your|these|those|attached|uploaded)\s+(?:attached\s+|uploaded\s+)?(?:documents?|files?|docs|pdfs?|knowledge(?:\s+base)?|sources?)`;
export const KNOWLEDGE_QUESTIONS: RegExp[] = [
  new RegExp(
    String.raw`^(?:based on|according to|from|per|going by)\s+${FILES}\s*[,:-]?\s*(?<topic>.+)$`,
    'i',
  ),
  new RegExp(
    String.raw`^what\s+(?:do|does|did)\s+${FILES}\s+(?:say|tell(?:\s+me)?|mention|state|contain)\s+(?:about|on|regarding|concerning)\s+(?<topic>.+)$`,
    'i',
  ),
  new RegExp(String.raw`^what\s+(?:is|are)\s+in\s+${FILES}\s+(?:about|on|regarding)\s+(?<topic>.+)$`, 'i'),
  new RegExp(
    String.raw`^(?:search|look\s+(?:in|through)|check|find\s+in)\s+${FILES}\s+(?:for|about)\s+(?<topic>.+)$`,
    'i',
  ),
  new RegExp(
    String.raw`^(?:do|does)\s+${FILES}\s+(?:say|mention)\s+(?:anything\s+)?(?:about\s+)?(?<topic>.+)$`,
    'i',
  ),
  new RegExp(String.raw`^(?<topic>.+?)\s*[,-]?\s+(?:according to|based on|in)\s+${FILES}$`, 'i'),
];

/** What the offline model says with the passages "Search knowledge" found. */
export const KNOWLEDGE_PHRASES = {
  found: 'According to your files:',
  sources: 'Sources:',
  none: (query: string) =>
    `I found nothing about “${query}” in this agent's files. Try other words, or check the files in the agent's editor.`,
  source: (n: number, file: string, passage: number, page: number | null) =>
    `[${n}] ${file}, ${page === null ? '' : `page ${page}, `}passage ${passage}`,
} as const;

/** Reads the pending question back from the last answer: the tool and the fields it asked for. */
export const ASKED = /^To run \*\*([\w.-]+)\*\* I need ((?:the \*\*[\w.-]+\*\*(?: and )?)+)/;
