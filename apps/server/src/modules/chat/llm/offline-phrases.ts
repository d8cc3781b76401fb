/**
 * Everything the built-in offline model says, and the English it reads, as data: the model logic
 * (offline-intents.ts and its helpers) picks a phrase and fills in tool names, inputs and results.
 */

export const OFFLINE_LABEL = 'Offline model — configure an LLM provider for full answers';
/** The offline model's name, as answers record it. */
export const OFFLINE_MODEL_ID = 'cadre-offline-1';

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

/** Sentences of well-known tools for the capabilities answer; other tools get one made from their schema. */
export const TOOL_EXAMPLES: Record<string, string> = {
  add: 'add 9 and 33',
  subtract: 'subtract 8 from 50',
  multiply: '12 times 7',
  divide: 'divide 250 by 4',
  power: '2 to the power of 10',
  sqrt: 'square root of 81',
  percent: "what's 20% of 45",
  evaluate: 'what is (3 + 4) * 2?',
  create_note: 'note down: call the bank',
  list_notes: 'show my notes',
  search_notes: 'search my notes for "bank"',
  create_event: 'remind me tomorrow at 3pm to call Sam',
  list_events: 'what is on my calendar',
  web_search: 'search the web for trail running shoes',
  read_page: 'read https://example.com',
  create_issue: 'create issue owner: octocat, repo: hello-world, title: "Fix the login bug"',
  now: 'what time is it now in Asia/Tokyo',
  add_to_date: 'add 3 weeks to the date 2026-03-09',
  day_of_week: 'what day of the week is 2026-12-25',
  difference: 'how long is it from 2026-01-01 to 2026-03-09',
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
};

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
  update: ['change', 'edit', 'rename', 'update', 'modify'],
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
  'a an to of for in on at by with from into about please me my i you it this that some and or so then just now'.split(
    ' ',
  ),
);

/** Leading phrases that say what to do, not what with: cut from free text ("note down: X" → X). */
export const COMMAND_PREFIX =
  /^(?:(?:please|hey|ok|okay|can you|could you|would you|will you|i want you to|i'd like you to|i need you to|i need to|i want to|help me)\s+)*(?:(?:note down|jot down|write down|take (?:a |down a )?note(?: of)?|make (?:a )?note(?: of)?|add (?:a )?note|create (?:a )?note|new note|save (?:a )?note|remember|remind me|set (?:a )?reminder|add (?:a )?reminder|create (?:a |an )?(?:event|reminder|appointment|meeting)|schedule|book|put|add|open (?:a |an )?(?:support )?ticket|file (?:a |an )?ticket|create (?:a |an )?ticket|log (?:a |an )?(?:call|meeting|email|note)?|search(?: the web| online| the internet)?(?: for)?|tell me (?:more )?about|what do you know about|google|look up|lookup|find|show(?: me)?|give me|get me|list|research|draft (?:an? )?(?:outreach )?email to|draft|read|compare|refund|issue (?:a )?refund for)\b\s*(?:(?:that|to|about|for|on|called|titled|named|saying|with)\b\s*)?[:\-–—]?\s*)/i;

/** Trailing phrases that only say where something goes ("… to my calendar"). */
export const PLACE_SUFFIX =
  /\s*(?:(?:to|in|on|into)\s+(?:my|the)\s+(?:calendar|agenda|notes?|notebook|diary|list)|please|thanks?|for me|now)\s*[.!?]*$/i;

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
  toolLine: (name: string, description: string, example: string) =>
    `- **${name}**${description ? ` — ${description}` : ''} Try: “${example}”`,
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
