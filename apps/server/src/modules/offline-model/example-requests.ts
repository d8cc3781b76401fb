import { isIdField } from './fields.ts';
import { exampleFor } from './intents.ts';
import { DESTRUCTIVE_VERBS } from './phrases.ts';
import type { ExampleTool } from './examples.ts';

/** Worth trying first: not a deletion, and nothing that needs an id the person has not seen. */
function worthTrying(tool: ExampleTool): boolean {
  const verb =
    (tool.displayName || tool.name)
      .toLowerCase()
      .split(/[^a-z]+/)
      .find(Boolean) ?? '';
  const needsId = (tool.inputSchema.required ?? []).some((name) => isIdField([name, {}]));
  return !DESTRUCTIVE_VERBS.has(verb) && !needsId;
}

/** See `exampleRequests` in index.ts, which loads this file on first use. */
export function exampleRequestsNow(tools: ExampleTool[], limit: number): string[] {
  const examples = tools.filter(worthTrying).flatMap((t) => exampleFor(t, tools) ?? []);
  const requests = [...new Set(examples.map((e) => e.charAt(0).toUpperCase() + e.slice(1)))];
  return requests.slice(0, limit);
}
