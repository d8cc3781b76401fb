import { exampleRequest } from './llm/offline-arguments.ts';
import { TOOL_EXAMPLES } from './llm/offline-phrases.ts';
import type { AgentTool } from './runtime/ports.ts';

const MAX_STARTERS = 4;

/**
 * Up to four requests a person would type, one per tool: the offline model's tested example for a
 * well-known tool, else one made from the tool's name and inputs. Never the tool's description,
 * which says what the tool is rather than what to ask. (Its own module: it reads the offline
 * model's phrasing, which is loaded when first needed.)
 */
export function derivedStarters(tools: Pick<AgentTool, 'name' | 'inputSchema'>[]): string[] {
  if (tools.length === 0) return ['What can you do?'];
  const examples = tools.map((t) => TOOL_EXAMPLES[t.name] ?? exampleRequest(t.name, t.inputSchema));
  return [...new Set(examples.map((e) => e.charAt(0).toUpperCase() + e.slice(1)))].slice(0, MAX_STARTERS);
}
