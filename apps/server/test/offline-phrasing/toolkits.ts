import type { JSONSchema7, LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import { DEMOS } from '../../src/modules/demos/catalog.ts';
import { BUILTIN_SERVICES } from '../../src/modules/tools/providers/builtin/index.ts';
import type { Toolkit } from './phrase-table.ts';
import { inputJsonSchema } from '../../src/modules/tools/providers/builtin/define.ts';
import {
  SEARCH_KNOWLEDGE_DESCRIPTION,
  SEARCH_KNOWLEDGE_INPUT,
  SEARCH_KNOWLEDGE_TOOL,
} from '../../src/modules/chat/runtime/knowledge-tool.ts';

/**
 * The tools of the phrase table's agents, exactly as the runtime offers them to a model: the real
 * built-in and demo actions, their descriptions and JSON Schemas.
 */

const builtin = (service: string, only?: string[]): LanguageModelV4FunctionTool[] =>
  BUILTIN_SERVICES.find((s) => s.key === service)!
    .actions.filter((a) => !only || only.includes(a.name))
    .map((a) => ({
      type: 'function',
      name: a.name,
      description: a.description,
      inputSchema: inputJsonSchema(a.input) as JSONSchema7,
    }));

const demo = (name: keyof typeof DEMOS): LanguageModelV4FunctionTool[] =>
  DEMOS[name].tools.map((t) => ({
    type: 'function',
    name: t.definition.name,
    description: t.definition.description,
    inputSchema: t.definition.inputSchema as JSONSchema7,
  }));

/** Tools as an MCP server lists them: JSON Schema with formats, several text inputs each. */
const bookmarksAndMail = (): LanguageModelV4FunctionTool[] => [
  {
    type: 'function',
    name: 'save_bookmark',
    description: 'Save a web page to your bookmarks.',
    inputSchema: {
      type: 'object',
      properties: {
        url: { type: 'string', format: 'uri', description: 'The page to save' },
        title: { type: 'string', description: 'A title for the bookmark' },
      },
      required: ['url'],
    },
  },
  {
    type: 'function',
    name: 'share_link',
    description: 'Share a link with someone by email.',
    inputSchema: {
      type: 'object',
      properties: {
        url: { type: 'string', format: 'uri' },
        email: { type: 'string', format: 'email', description: 'Who to share it with' },
        note: { type: 'string' },
      },
      required: ['url', 'email'],
    },
  },
  {
    type: 'function',
    name: 'send_email',
    description: 'Send an email.',
    inputSchema: {
      type: 'object',
      properties: {
        to: { type: 'string', format: 'email', description: 'The recipient' },
        subject: { type: 'string' },
        body: { type: 'string' },
      },
      required: ['to', 'body'],
    },
  },
];

export const TOOLKITS = {
  /** The whole Calculator service. */
  calculator: () => builtin('calculator'),
  /** An agent with only Add and Multiply attached (as the e2e chat agent has Add). */
  'add-multiply': () => builtin('calculator', ['add', 'multiply']),
  notes: () => builtin('notes'),
  calendar: () => builtin('calendar'),
  'date and time': () => builtin('datetime'),
  'web search': () => builtin('web_search'),
  'web reader': () => builtin('web_reader'),
  'hacker news': () => builtin('hacker_news'),
  wikipedia: () => builtin('wikipedia'),
  youtube: () => builtin('youtube'),
  places: () => builtin('places'),
  weather: () => builtin('weather'),
  github: () => builtin('github'),
  'bookmarks and mail (MCP)': bookmarksAndMail,
  'customer service demo': () => demo('customerservicedemo'),
  'sales demo': () => demo('salesoutreachdemo'),
  'vc demo': () => demo('vcdemo'),
  /** The tool an agent with knowledge files gets. */
  knowledge: (): LanguageModelV4FunctionTool[] => [
    {
      type: 'function',
      name: SEARCH_KNOWLEDGE_TOOL,
      description: SEARCH_KNOWLEDGE_DESCRIPTION,
      inputSchema: SEARCH_KNOWLEDGE_INPUT,
    },
  ],
} satisfies Record<Toolkit, () => LanguageModelV4FunctionTool[]>;

/** Every built-in service's and every demo's tools, one agent each. */
export const EVERY_SERVICE: Array<[string, LanguageModelV4FunctionTool[]]> = [
  ...BUILTIN_SERVICES.map((s) => [s.name, builtin(s.key)] as [string, LanguageModelV4FunctionTool[]]),
  ...(Object.keys(DEMOS) as Array<keyof typeof DEMOS>).map(
    (name) => [name, demo(name)] as [string, LanguageModelV4FunctionTool[]],
  ),
];

export const toolsOf = (kits: Toolkit[]) => kits.flatMap((kit) => TOOLKITS[kit]());
