/**
 * The offline model's phrase table: what people actually type, and what the model must do with it.
 * One row per phrasing; `offline-phrasing.unit.test.ts` runs each row as a test and
 * `bench/offline-phrasing.ts` reports the share answered right (docs/benchmarks.md).
 *
 * The person is in Europe/Paris and it is Monday 2026-03-09, 11:00 there (see CLOCK).
 * - `say`: the person's message, or several turns (each answered by the model; the last is judged);
 * - `call` + `args`: the tool the model must call, with at least these arguments;
 * - `result`: for Evaluate, the value the expression must have;
 * - `reply`: text (or texts) the answer must contain when no tool may be called.
 *
 * It imports nothing, so the Playwright spec that types five of its rows into the chat frame reads
 * them from here (e2e/tests/offline-phrasing.spec.ts).
 */

export const CLOCK = { now: '2026-03-09T10:00:00Z', timeZone: 'Europe/Paris' };

export type Category =
  | 'greeting'
  | 'arithmetic'
  | 'notes'
  | 'calendar'
  | 'web search'
  | 'demo tools'
  | 'knowledge'
  | 'refusal'
  | 'follow-up'
  | 'tool examples'
  | 'arguments';

/** The agents' tool sets (toolkits.ts gives each its real tools). */
export const TOOLKIT_NAMES = [
  'calculator',
  'add-multiply',
  'notes',
  'calendar',
  'date and time',
  'web search',
  'web reader',
  'hacker news',
  'wikipedia',
  'youtube',
  'places',
  'weather',
  'github',
  'bookmarks and mail (MCP)',
  'customer service demo',
  'sales demo',
  'vc demo',
  'knowledge',
] as const;
export type Toolkit = (typeof TOOLKIT_NAMES)[number];

export interface PhraseRow {
  category: Category;
  tools: Toolkit[];
  say: string | string[];
  call?: string;
  args?: Record<string, unknown>;
  result?: number;
  reply?: string | string[];
}

const basics: Toolkit[] = ['calculator', 'notes'];
const organizer: Toolkit[] = ['notes', 'calendar'];
const shop: Toolkit[] = ['customer service demo'];
const sales: Toolkit[] = ['sales demo'];
const vc: Toolkit[] = ['vc demo'];
const web: Toolkit[] = ['web search', 'notes'];
const calc: Toolkit[] = ['calculator'];
const clock: Toolkit[] = ['date and time'];
const library: Toolkit[] = ['knowledge', 'notes'];

const at = (local: string) => `${local}+01:00`;

// prettier-ignore
export const PHRASE_TABLE: PhraseRow[] = [
  // Greetings and "what can you do?": a short answer listing the tools; thanks: a brief one; no tool call.
  { category: 'greeting', tools: basics, say: 'hi there', reply: 'Try: “what is (3 + 4) * 2?”' },
  { category: 'greeting', tools: basics, say: 'good morning', reply: 'Try: “note down: call the bank”' },
  { category: 'greeting', tools: basics, say: 'thanks!', reply: "You're welcome!" },
  { category: 'greeting', tools: basics, say: 'what can you do?', reply: 'Here is what I can do' },
  { category: 'greeting', tools: basics, say: 'Hello', reply: 'Hello!' },
  { category: 'greeting', tools: basics, say: 'hey, how are you?', reply: 'Here is what I can do' },
  { category: 'greeting', tools: organizer, say: 'help', reply: 'Try: “remind me tomorrow at 3pm to call Sam”' },
  { category: 'greeting', tools: shop, say: 'Who are you?', reply: 'Try: “refund order ORD-1042”' },
  { category: 'greeting', tools: basics, say: 'thank you so much', reply: "You're welcome!" },

  // Arithmetic in words and symbols, with or without a question mark.
  { category: 'arithmetic', tools: calc, say: 'what is 12 + 30?', call: 'evaluate', args: { expression: '12 + 30' }, result: 42 },
  { category: 'arithmetic', tools: calc, say: 'add 9 and 33', call: 'evaluate', result: 42 },
  { category: 'arithmetic', tools: calc, say: '12 times 7', call: 'evaluate', result: 84 },
  { category: 'arithmetic', tools: calc, say: 'divide 250 by 4', call: 'evaluate', result: 62.5 },
  { category: 'arithmetic', tools: calc, say: "what's 20% of 45", call: 'evaluate', result: 9 },
  { category: 'arithmetic', tools: calc, say: 'square root of 81', call: 'evaluate', result: 9 },
  { category: 'arithmetic', tools: calc, say: '(3+4)*2', call: 'evaluate', result: 14 },
  { category: 'arithmetic', tools: calc, say: 'how much is 7 squared', call: 'evaluate', result: 49 },
  { category: 'arithmetic', tools: basics, say: 'What is seven times eight?', call: 'evaluate', result: 56 },
  { category: 'arithmetic', tools: calc, say: 'subtract 8 from 50', call: 'evaluate', result: 42 },
  { category: 'arithmetic', tools: calc, say: '2 to the power of 10', call: 'evaluate', result: 1024 },
  { category: 'arithmetic', tools: calc, say: 'calculate 1,000 / 8', call: 'evaluate', result: 125 },
  { category: 'arithmetic', tools: calc, say: 'what is 5 x 6?', call: 'evaluate', result: 30 },
  { category: 'arithmetic', tools: calc, say: 'sqrt(16) + 1', call: 'evaluate', result: 5 },
  { category: 'arithmetic', tools: calc, say: 'what is 12 + 30 =', call: 'evaluate', result: 42 },
  { category: 'arithmetic', tools: ['add-multiply'], say: 'add 12 and 30', call: 'add', args: { a: 12, b: 30 } },
  { category: 'arithmetic', tools: ['add-multiply'], say: '12 times 7', call: 'multiply', args: { a: 12, b: 7 } },

  // Notes: the title comes from the sentence, not the sentence itself.
  { category: 'notes', tools: basics, say: 'note down: call the bank', call: 'create_note', args: { title: 'call the bank' } },
  { category: 'notes', tools: basics, say: 'take a note: buy milk and eggs', call: 'create_note', args: { title: 'buy milk and eggs' } },
  { category: 'notes', tools: basics, say: 'jot down pick up the dry cleaning', call: 'create_note', args: { title: 'pick up the dry cleaning' } },
  { category: 'notes', tools: basics, say: 'create a note "Groceries" body: milk and eggs', call: 'create_note', args: { title: 'Groceries', body: 'milk and eggs' } },
  { category: 'notes', tools: basics, say: 'remember that the wifi password is on the fridge', call: 'create_note', args: { title: 'the wifi password is on the fridge' } },
  { category: 'notes', tools: basics, say: 'show my notes', call: 'list_notes' },
  { category: 'notes', tools: basics, say: 'search my notes for "bank"', call: 'search_notes', args: { query: 'bank' } },
  { category: 'notes', tools: organizer, say: 'make a note to renew the passport', call: 'create_note', args: { title: 'renew the passport' } },

  // Calendar: dates and times in the person's time zone (chrono-node).
  { category: 'calendar', tools: organizer, say: 'remind me tomorrow at 3pm to call Sam', call: 'create_event', args: { title: 'call Sam', start: at('2026-03-10T15:00:00'), end: at('2026-03-10T16:00:00') } },
  { category: 'calendar', tools: organizer, say: 'schedule a meeting with Ana on Friday at 10am', call: 'create_event', args: { title: 'meeting with Ana', start: at('2026-03-13T10:00:00') } },
  { category: 'calendar', tools: organizer, say: 'add dentist appointment to my calendar next Monday at 9am', call: 'create_event', args: { title: 'dentist appointment', start: at('2026-03-16T09:00:00') } },
  { category: 'calendar', tools: organizer, say: 'book lunch with Tom tomorrow at noon', call: 'create_event', args: { title: 'lunch with Tom', start: at('2026-03-10T12:00:00') } },
  { category: 'calendar', tools: organizer, say: 'schedule a team sync on March 20 from 2 to 3pm', call: 'create_event', args: { title: 'team sync', start: at('2026-03-20T14:00:00'), end: at('2026-03-20T15:00:00') } },
  { category: 'calendar', tools: organizer, say: 'remind me in 2 hours to stretch', call: 'create_event', args: { title: 'stretch', start: at('2026-03-09T13:00:00') } },
  { category: 'calendar', tools: organizer, say: "what's on my calendar tomorrow?", call: 'list_events', args: { from: at('2026-03-10T00:00:00'), to: at('2026-03-11T00:00:00') } },
  { category: 'calendar', tools: organizer, say: 'set a reminder for Thursday at 8:30am to water the plants', call: 'create_event', args: { title: 'water the plants', start: at('2026-03-12T08:30:00') } },

  // Web search: the query is what to look for, not the command.
  { category: 'web search', tools: web, say: 'search the web for trail running shoes', call: 'web_search', args: { query: 'trail running shoes' } },
  { category: 'web search', tools: web, say: 'google best pizza in Naples', call: 'web_search', args: { query: 'best pizza in Naples' } },
  { category: 'web search', tools: web, say: 'look up the latest news about the Mars rover', call: 'web_search', args: { query: 'the latest news about the Mars rover' } },
  { category: 'web search', tools: web, say: 'search for hiking boots 2026', call: 'web_search', args: { query: 'hiking boots 2026' } },
  { category: 'web search', tools: web, say: 'show me the top 5 results for electric bikes', call: 'web_search', args: { query: 'electric bikes', count: 5 } },
  { category: 'web search', tools: web, say: 'search the web for "best budget headphones"', call: 'web_search', args: { query: 'best budget headphones' } },
  { category: 'web search', tools: web, say: 'can you search online for vegan lasagne recipes?', call: 'web_search', args: { query: 'vegan lasagne recipes' } },

  // The demo agents' tools.
  { category: 'demo tools', tools: shop, say: 'Look up order ORD-1042', call: 'lookup_order', args: { query: 'ORD-1042' } },
  { category: 'demo tools', tools: shop, say: 'where is my order 1042?', call: 'lookup_order', args: { query: '1042' } },
  { category: 'demo tools', tools: shop, say: 'refund order 1042', call: 'issue_refund', args: { order_id: '1042' } },
  { category: 'demo tools', tools: shop, say: 'Issue a refund for order ORD-1042', call: 'issue_refund', args: { order_id: 'ORD-1042' } },
  { category: 'demo tools', tools: shop, say: 'ORD-1042 arrived damaged, please refund it', call: 'issue_refund', args: { order_id: 'ORD-1042', reason: 'damaged' } },
  { category: 'demo tools', tools: shop, say: "what's your refund policy?", call: 'get_refund_policy', args: {} },
  { category: 'demo tools', tools: shop, say: 'find customer maya.lindgren@example.com', call: 'lookup_customer', args: { query: 'maya.lindgren@example.com' } },
  { category: 'demo tools', tools: shop, say: 'Open a support ticket: the tent in ORD-1030 arrived with a broken pole', call: 'open_ticket', args: { subject: 'the tent in ORD-1030 arrived with a broken pole', order_id: 'ORD-1030' } },
  { category: 'demo tools', tools: shop, say: 'open an urgent ticket about a missing parcel', call: 'open_ticket', args: { subject: 'missing parcel', priority: 'urgent' } },
  { category: 'demo tools', tools: sales, say: 'Find leads in healthcare', call: 'find_leads', args: { industry: 'healthcare' } },
  { category: 'demo tools', tools: sales, say: 'Research Brightwater Clinics', call: 'research_lead', args: { company: 'Brightwater Clinics' } },
  { category: 'demo tools', tools: sales, say: 'Draft an outreach email to Brightwater Clinics', call: 'draft_outreach_email', args: { company: 'Brightwater Clinics' } },
  { category: 'demo tools', tools: sales, say: 'Log a call with Brightwater Clinics', call: 'log_activity', args: { lead: 'Brightwater Clinics', type: 'call' } },
  { category: 'demo tools', tools: sales, say: 'draft a formal email to Brightwater Clinics', call: 'draft_outreach_email', args: { company: 'Brightwater Clinics', tone: 'formal' } },
  { category: 'demo tools', tools: vc, say: 'Search startups in fintech', call: 'search_startups', args: { sector: 'fintech' } },
  { category: 'demo tools', tools: vc, say: 'Compare Novapay and Ledgerline', call: 'compare_startups', args: { companies: 'Novapay and Ledgerline' } },
  { category: 'demo tools', tools: vc, say: 'Draft an investment memo for Cortexa', call: 'draft_investment_memo', args: { company: 'Cortexa' } },
  { category: 'demo tools', tools: vc, say: 'show me Series A startups in Germany', call: 'search_startups', args: { stage: 'Series A', country: 'Germany' } },

  // Requests no attached tool can serve: say so, and name what the agent can do.
  { category: 'refusal', tools: basics, say: 'write me a haiku about autumn', reply: "I can't do that with this agent's tools" },
  { category: 'refusal', tools: basics, say: "what's the weather in Oslo?", reply: "I can't do that with this agent's tools" },
  { category: 'refusal', tools: basics, say: 'translate hello into French', reply: 'Try: “add 9 and 33”' },
  { category: 'refusal', tools: basics, say: 'play some jazz', reply: "I can't do that with this agent's tools" },
  { category: 'refusal', tools: organizer, say: 'add 1 and 1', reply: "I can't do that with this agent's tools" },
  { category: 'refusal', tools: shop, say: 'book me a flight to Paris', reply: 'Try: “look up order ORD-1042”' },
  { category: 'refusal', tools: vc, say: 'what is the capital of France?', reply: "I can't do that with this agent's tools" },
  { category: 'refusal', tools: calc, say: 'tell me a joke', reply: "I can't do that with this agent's tools" },

  // A missing argument: one question, and the answer is used on the next turn.
  { category: 'follow-up', tools: organizer, say: 'remind me to call Sam', reply: 'I need the **start**' },
  { category: 'follow-up', tools: organizer, say: ['remind me to call Sam', 'tomorrow at 3pm'], call: 'create_event', args: { title: 'call Sam', start: at('2026-03-10T15:00:00'), end: at('2026-03-10T16:00:00') } },
  { category: 'follow-up', tools: basics, say: ['make a note', 'call the bank'], call: 'create_note', args: { title: 'call the bank' } },
  { category: 'follow-up', tools: shop, say: ['I want a refund', 'ORD-1042'], call: 'issue_refund', args: { order_id: 'ORD-1042' } },
  { category: 'follow-up', tools: web, say: ['search the web', 'electric bikes'], call: 'web_search', args: { query: 'electric bikes' } },
  { category: 'follow-up', tools: sales, say: ['research a lead', 'Brightwater Clinics'], call: 'research_lead', args: { company: 'Brightwater Clinics' } },
  { category: 'follow-up', tools: organizer, say: ['remind me to call Sam', 'never mind'], reply: "OK, I won't run **create_event**" },

  // Written after the rows above as unseen phrasings: the first run answered 17 of these 22 right
  // (docs/benchmarks.md); they stay here so the fixes for the other 5 stay fixed.
  { category: 'greeting', tools: basics, say: 'good evening!', reply: 'Here is what I can do' },
  { category: 'greeting', tools: basics, say: 'cheers', reply: "You're welcome!" },
  { category: 'greeting', tools: basics, say: 'what tools do you have?', reply: 'Here is what I can do' },
  { category: 'arithmetic', tools: calc, say: 'whats 15 percent of 80', call: 'evaluate', result: 12 },
  { category: 'arithmetic', tools: calc, say: 'multiply 6 by 9', call: 'evaluate', result: 54 },
  { category: 'arithmetic', tools: calc, say: 'what is 100 divided by 8?', call: 'evaluate', result: 12.5 },
  { category: 'arithmetic', tools: calc, say: 'how much is 3 plus 4 times 2', call: 'evaluate', result: 11 },
  { category: 'arithmetic', tools: calc, say: 'can you work out 45 minus 17 for me', call: 'evaluate', result: 28 },
  { category: 'notes', tools: organizer, say: 'write down that the meeting moved to room 4', call: 'create_note', args: { title: 'the meeting moved to room 4' } },
  { category: 'notes', tools: ['notes'], say: 'save a note called Packing list', call: 'create_note', args: { title: 'Packing list' } },
  { category: 'calendar', tools: organizer, say: 'put yoga on my calendar for Wednesday at 6pm', call: 'create_event', args: { title: 'yoga', start: at('2026-03-11T18:00:00') } },
  { category: 'calendar', tools: organizer, say: 'remind me to pay rent on March 31', call: 'create_event', args: { title: 'pay rent' } },
  { category: 'calendar', tools: organizer, say: 'do I have anything on Friday?', call: 'list_events' },
  { category: 'web search', tools: ['web search'], say: 'find me articles about sourdough starters', call: 'web_search', args: { query: 'articles about sourdough starters' } },
  { category: 'web search', tools: ['web search'], say: 'who won the 2022 world cup', call: 'web_search' },
  { category: 'demo tools', tools: shop, say: 'what is the status of ORD-1043?', call: 'lookup_order', args: { query: 'ORD-1043' } },
  { category: 'demo tools', tools: shop, say: 'please give a refund for ORD-1047, wrong item', call: 'issue_refund', args: { order_id: 'ORD-1047', reason: 'wrong_item' } },
  { category: 'demo tools', tools: sales, say: 'tell me about Brightwater Clinics', call: 'research_lead', args: { company: 'Brightwater Clinics' } },
  { category: 'demo tools', tools: vc, say: 'how does Novapay compare to Ledgerline?', call: 'compare_startups' },
  { category: 'refusal', tools: calc, say: 'summarise this article for me', reply: "I can't do that" },
  { category: 'refusal', tools: sales, say: 'order me a pizza', reply: "I can't do that" },
  { category: 'follow-up', tools: ['notes'], say: ['add a note', 'dentist on Tuesday'], call: 'create_note', args: { title: 'dentist on Tuesday' } },

  // Every built-in tool's example, as the empty chat's starters and the capabilities answer offer
  // it (TOOL_EXAMPLES; offline-phrasing.unit.test.ts checks each has its row here).
  { category: 'tool examples', tools: calc, say: 'what is 12 times 7?', call: 'evaluate', result: 84 },
  { category: 'tool examples', tools: calc, say: 'what is (3 + 4) * 2?', call: 'evaluate', result: 14 },
  { category: 'tool examples', tools: clock, say: 'what time is it now in Asia/Tokyo?', call: 'now', args: { time_zone: 'Asia/Tokyo' } },
  { category: 'tool examples', tools: clock, say: 'convert 2026-03-09 15:00 from Europe/Paris to America/New_York', call: 'convert_time', args: { datetime: at('2026-03-09T15:00:00'), from_time_zone: 'Europe/Paris', to_time_zone: 'America/New_York' } },
  { category: 'tool examples', tools: clock, say: 'add 3 weeks to the date 2026-03-09', call: 'add_to_date', args: { date: '2026-03-09', amount: 3, unit: 'weeks' } },
  { category: 'tool examples', tools: clock, say: 'what day of the week is 2026-12-25?', call: 'day_of_week', args: { date: '2026-12-25' } },
  { category: 'tool examples', tools: clock, say: 'how long is it from 2026-01-01 to 2026-03-09?', call: 'difference', args: { start: '2026-01-01', end: '2026-03-09' } },
  { category: 'tool examples', tools: organizer, say: 'read note 1', call: 'get_note', args: { id: 1 } },
  { category: 'tool examples', tools: organizer, say: 'rename note 1 to "Shopping list"', call: 'update_note', args: { id: 1, title: 'Shopping list' } },
  { category: 'tool examples', tools: organizer, say: 'delete note 1', call: 'delete_note', args: { id: 1 } },
  { category: 'tool examples', tools: organizer, say: 'what is on my calendar', call: 'list_events', args: {} },
  { category: 'tool examples', tools: organizer, say: 'search my calendar for "dentist"', call: 'search_events', args: { query: 'dentist' } },
  { category: 'tool examples', tools: organizer, say: 'move event 1 to Friday at 10am', call: 'update_event', args: { id: 1, start: at('2026-03-13T10:00:00') } },
  { category: 'tool examples', tools: organizer, say: 'delete event 1', call: 'delete_event', args: { id: 1 } },
  { category: 'tool examples', tools: organizer, say: 'when am I free tomorrow?', call: 'find_free_slots', args: { from: at('2026-03-10T00:00:00'), to: at('2026-03-11T00:00:00') } },
  { category: 'tool examples', tools: organizer, say: 'export my calendar as an .ics file', call: 'export_ics', args: {} },
  { category: 'tool examples', tools: ['web reader'], say: 'read https://example.com', call: 'read_page', args: { url: 'https://example.com' } },
  { category: 'tool examples', tools: ['hacker news'], say: 'what are the top stories on Hacker News?', call: 'top_stories', args: {} },
  { category: 'tool examples', tools: ['hacker news'], say: 'show the newest stories on Hacker News', call: 'new_stories', args: {} },
  { category: 'tool examples', tools: ['hacker news'], say: 'show the best stories on Hacker News', call: 'best_stories', args: {} },
  { category: 'tool examples', tools: ['hacker news'], say: 'open Hacker News item 8863', call: 'get_item', args: { id: 8863 } },
  { category: 'tool examples', tools: ['hacker news'], say: 'search Hacker News for "rust"', call: 'search', args: { query: 'rust' } },
  { category: 'tool examples', tools: ['wikipedia'], say: 'search Wikipedia for "Ada Lovelace"', call: 'search', args: { query: 'Ada Lovelace' } },
  { category: 'tool examples', tools: ['wikipedia'], say: 'summarise the Wikipedia article on Ada Lovelace', call: 'page_summary', args: { title: 'Ada Lovelace' } },
  { category: 'tool examples', tools: ['youtube'], say: 'find videos about sourdough bread on YouTube', call: 'search_videos', args: { query: 'sourdough bread' } },
  { category: 'tool examples', tools: ['places'], say: 'find vegetarian restaurants in Lyon', call: 'search_places', args: { query: 'vegetarian restaurants in Lyon' } },
  { category: 'tool examples', tools: ['weather'], say: "what's the weather in Paris?", call: 'current_weather', args: { city: 'Paris' } },
  { category: 'tool examples', tools: ['github'], say: 'list my GitHub repositories', call: 'list_repos', args: {} },
  { category: 'tool examples', tools: ['github'], say: 'list the open issues in octocat/hello-world', call: 'list_issues', args: { owner: 'octocat', repo: 'hello-world', state: 'open' } },
  { category: 'tool examples', tools: ['github'], say: 'open an issue in octocat/hello-world titled "Fix the login bug"', call: 'create_issue', args: { owner: 'octocat', repo: 'hello-world', title: 'Fix the login bug' } },
  { category: 'tool examples', tools: shop, say: 'refund order ORD-1042', call: 'issue_refund', args: { order_id: 'ORD-1042' } },
  { category: 'tool examples', tools: shop, say: "what's the refund policy?", call: 'get_refund_policy', args: {} },
  { category: 'tool examples', tools: shop, say: 'open a ticket: the tent in ORD-1030 arrived with a broken pole', call: 'open_ticket', args: { subject: 'the tent in ORD-1030 arrived with a broken pole', order_id: 'ORD-1030' } },

  // Emails and URLs go to the inputs whose format and name fit them, among several (the tools as an
  // MCP server lists them), and the rest of the sentence to the text.
  { category: 'arguments', tools: ['bookmarks and mail (MCP)'], say: 'save https://example.com/recipes/lasagne to my bookmarks', call: 'save_bookmark', args: { url: 'https://example.com/recipes/lasagne' } },
  { category: 'arguments', tools: ['bookmarks and mail (MCP)'], say: 'share https://example.com/q3-report with ana@example.com', call: 'share_link', args: { url: 'https://example.com/q3-report', email: 'ana@example.com' } },
  { category: 'arguments', tools: ['bookmarks and mail (MCP)'], say: 'send an email to bob@example.org saying the deck is at https://example.com/deck', call: 'send_email', args: { to: 'bob@example.org', body: 'the deck is at https://example.com/deck' } },
  { category: 'arguments', tools: ['web reader'], say: 'read https://news.example.org/2026/03/rover.html and summarise it', call: 'read_page', args: { url: 'https://news.example.org/2026/03/rover.html' } },
  { category: 'arguments', tools: ['bookmarks and mail (MCP)'], say: 'bookmark "Lasagne" at https://example.com/recipes/lasagne', call: 'save_bookmark', args: { url: 'https://example.com/recipes/lasagne', title: 'Lasagne' } },

  // Questions about the agent's own files ("according to my documents, …"): "Search knowledge"
  // with what the question is about.
  { category: 'knowledge', tools: library, say: 'according to my documents, how long is the warranty?', call: 'search_knowledge', args: { query: 'how long is the warranty' } },
  { category: 'knowledge', tools: library, say: 'What do the files say about refunds?', call: 'search_knowledge', args: { query: 'refunds' } },
  { category: 'knowledge', tools: library, say: 'what does the document say about parental leave', call: 'search_knowledge', args: { query: 'parental leave' } },
  { category: 'knowledge', tools: library, say: 'based on my files: who signs off on expenses?', call: 'search_knowledge', args: { query: 'who signs off on expenses' } },
  { category: 'knowledge', tools: library, say: 'search my documents for "onboarding checklist"', call: 'search_knowledge', args: { query: 'onboarding checklist' } },
  { category: 'knowledge', tools: library, say: 'how many vacation days do I get according to my docs', call: 'search_knowledge', args: { query: 'how many vacation days do I get' } },
  { category: 'knowledge', tools: library, say: 'do my files mention the Berlin office?', call: 'search_knowledge', args: { query: 'the Berlin office' } },
  { category: 'knowledge', tools: ['knowledge'], say: 'what is the refund window?', call: 'search_knowledge', args: { query: 'what is the refund window' } },
  { category: 'knowledge', tools: library, say: 'search my notes for "bank"', call: 'search_notes', args: { query: 'bank' } },
  { category: 'knowledge', tools: library, say: 'what can you do?', reply: 'Try: “what do the files say about refunds?”' },
];
