import {
  AGENT_EXPORT_FORMAT,
  AGENT_EXPORT_VERSION,
  type AgentColor,
  type AgentTemplate,
  type agentExportSchema,
} from '@cadre/contract';
import type { z } from 'zod';

/**
 * The agent templates (one list: the Info page's example agents and the Agents screen's gallery
 * both read it through GET /api/v1/agent-templates/). Each uses built-in services that need no
 * account, so creating one works at once; its starters are requests the offline model answers
 * with the template's tools, so the first click in its chat gets an answer without a provider.
 */
interface TemplateDefinition {
  id: string;
  name: string;
  description: string;
  guidelines: string | null;
  icon: string;
  color: AgentColor;
  starters: string[];
  /** Built-in service key, its name, and the tools of it the agent gets. */
  services: { key: string; name: string; tools: string[] }[];
}

/** The template READY_ASSISTANT offers a new account. */
export const READY_ASSISTANT_TEMPLATE = 'assistant';

const CALCULATOR = {
  key: 'calculator',
  name: 'Calculator',
  tools: ['add', 'subtract', 'multiply', 'divide', 'power', 'sqrt', 'percent', 'evaluate'],
};
const DATE_TIME = {
  key: 'datetime',
  name: 'Date & Time',
  tools: ['now', 'convert_time', 'add_to_date', 'day_of_week', 'difference'],
};

const DEFINITIONS: TemplateDefinition[] = [
  {
    id: READY_ASSISTANT_TEMPLATE,
    name: 'Assistant',
    description: 'Does sums, answers questions about dates and times, and keeps your notes.',
    guidelines: null,
    icon: '🧮',
    color: 'blue',
    starters: ['What is 12 times 7?', 'What day of the week is 2026-12-25?', 'Note down: call the bank'],
    services: [
      CALCULATOR,
      DATE_TIME,
      {
        key: 'notes',
        name: 'Notes',
        tools: ['create_note', 'list_notes', 'search_notes', 'get_note', 'update_note', 'delete_note'],
      },
    ],
  },
  {
    id: 'calendar',
    name: 'Calendar planner',
    description: 'Keeps your calendar: lists, finds and plans events, and finds free time.',
    guidelines: 'Before creating or moving an event, say the day and time you understood.',
    icon: '📅',
    color: 'green',
    starters: ['What is on my calendar', 'When am I free tomorrow?', 'Remind me tomorrow at 3pm to call Sam'],
    services: [
      {
        key: 'calendar',
        name: 'Calendar',
        tools: [
          'create_event',
          'list_events',
          'search_events',
          'update_event',
          'delete_event',
          'find_free_slots',
          'export_ics',
        ],
      },
      DATE_TIME,
    ],
  },
  {
    id: 'tech-news',
    name: 'Tech news',
    description: 'Finds the top, newest and best stories and discussions on Hacker News.',
    guidelines: null,
    icon: '📰',
    color: 'orange',
    starters: ['What are the top stories on Hacker News?', 'Show the newest stories on Hacker News'],
    services: [
      {
        key: 'hacker_news',
        name: 'Hacker News',
        tools: ['top_stories', 'new_stories', 'best_stories', 'get_item', 'search'],
      },
    ],
  },
  {
    id: 'researcher',
    name: 'Researcher',
    description: 'Looks things up on Wikipedia and reads the web pages you give it.',
    guidelines: 'Say where each fact comes from.',
    icon: '🔎',
    color: 'purple',
    starters: ['Summarise the Wikipedia article on Ada Lovelace', 'Read https://example.com'],
    services: [
      { key: 'wikipedia', name: 'Wikipedia', tools: ['search', 'page_summary'] },
      { key: 'web_reader', name: 'Web Page Reader', tools: ['read_page'] },
    ],
  },
];

/** The templates as the API lists them. */
export const AGENT_TEMPLATES: AgentTemplate[] = DEFINITIONS.map((t) => ({
  id: t.id,
  name: t.name,
  description: t.description,
  icon: t.icon,
  color: t.color,
  starters: t.starters,
  services: t.services.map((s) => s.name),
}));

/** A template as an export document: creating from it is an import of that document. */
export function templateDocument(id: string): z.output<typeof agentExportSchema> | undefined {
  const template = DEFINITIONS.find((t) => t.id === id);
  if (!template) return undefined;
  return {
    format: AGENT_EXPORT_FORMAT,
    format_version: AGENT_EXPORT_VERSION,
    agent: {
      name: template.name,
      description: template.description,
      guidelines: template.guidelines,
      icon: template.icon,
      color: template.color,
      starters: template.starters,
      model_id: null,
      temperature: null,
      tools: template.services.flatMap((service) =>
        service.tools.map((tool) => ({
          provider: 'builtin',
          service_key: service.key,
          tool_name: tool,
          service_name: service.name,
        })),
      ),
    },
    files: [],
  };
}
