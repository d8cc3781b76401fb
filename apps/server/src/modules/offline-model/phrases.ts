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
    'put',
    'block',
    'remember',
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
  note: ['notes', 'memo', 'jot', 'remember', 'notepad', 'notebook'],
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
  delete: ['remove', 'delete', 'drop', 'erase', 'trash', 'cancel'],
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
  difference: [
    'long',
    'between',
    'until',
    'since',
    'elapsed',
    'apart',
    'many',
    'count',
    'ago',
    'till',
    'left',
  ],
  day: ['weekday', 'weekend', 'fall'],
};

/** Words trimmed from the edges of free text ("a meeting with Ana" → "meeting with Ana"). */
export const EDGE_WORDS = new Set(
  (
    'a an to of for in on at by with from into about please pls plz me my i you it this that some and or so ' +
    'then just now saying mentioning containing regarding concerning'
  ).split(' '),
);

/** Leading phrases that say what to do, not what with: cut from free text ("note down: X" → X). */
export const COMMAND_PREFIX =
  /^(?:(?:please|pls|plz|hey|ok|okay|can you|could you|would you|will you|i want you to|i'd like you to|i need you to|i need to|i want to|help me)\s+)*(?:(?:note down|jot down|write down|take (?:a |down a )?note(?: of)?|make (?:a )?note(?: of)?|add (?:a )?note|create (?:a )?note|new note|save (?:a )?note|put down (?:a )?note(?: to)?|remember|remind me|set up|plan|block(?: out)?(?: time)?|new event|set (?:a )?reminder|add (?:a )?reminder|create (?:a |an )?(?:event|reminder|appointment|meeting)|schedule|book|put|add|open (?:a |an )?(?:support )?ticket|file (?:a |an )?ticket|create (?:a |an )?ticket|log (?:a |an )?(?:call|meeting|email|note)?|search(?: (?:in|through))?(?: (?:my|the) (?:calendar|agenda|diary|notes|notebook|files|documents|docs))?(?: the web| online| the internet)?(?: for)?|look for|tell me (?:more )?about|what do you know about|google|look up|lookup|find|show(?: me)?|give me|get me|list|research|draft (?:an? )?(?:outreach )?email to|draft|read|summari[sz]e|compare|refund|issue (?:a )?refund for)\b\s*(?:(?:(?:about|for|on|with)\s+(?:the|a|an)\s+(?=\S+\s+\S))|(?:that|to|about|for|on|called|titled|named|saying|with)\b\s*)?[:\-–—]?\s*)/i;

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

/** Reads the pending question back from the last answer: the tool and the fields it asked for. */
export const ASKED = /^To run \*\*([\w.-]+)\*\* I need ((?:the \*\*[\w.-]+\*\*(?: and )?)+)/;
