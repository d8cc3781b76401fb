import { isIdField } from './llm/offline-fields.ts';
import { exampleFor } from './llm/offline-intents.ts';
import { DESTRUCTIVE_VERBS } from './llm/offline-phrases.ts';
import type { AgentTool } from './runtime/ports.ts';

/** The most starters a session shows. */
export const MAX_STARTERS = 4;

type StarterTool = Pick<AgentTool, 'name' | 'displayName' | 'description' | 'inputSchema'>;

/** A starter is something to try: not a deletion, and nothing that needs an id the person has not seen. */
function fitsAStarter(tool: StarterTool): boolean {
  const verb =
    (tool.displayName || tool.name)
      .toLowerCase()
      .split(/[^a-z]+/)
      .find(Boolean) ?? '';
  const needsId = (tool.inputSchema.required ?? []).some((name) => isIdField([name, {}]));
  return !DESTRUCTIVE_VERBS.has(verb) && !needsId;
}

/**
 * Up to `limit` requests a person would type, one per tool, with real values ("What's the weather
 * in Paris?"): each one the offline model answers with its tool (`exampleFor`). Never the tool's
 * description, which says what the tool is rather than what to ask, and never a template. (Its own
 * module: it reads the offline model's phrasing, which is loaded when first needed.)
 */
export function derivedStarters(tools: StarterTool[], limit = MAX_STARTERS): string[] {
  const examples = tools.filter(fitsAStarter).flatMap((t) => exampleFor(t, tools) ?? []);
  const starters = [...new Set(examples.map((e) => e.charAt(0).toUpperCase() + e.slice(1)))];
  return starters.length > 0 ? starters.slice(0, limit) : ['What can you do?'];
}
