import type { ChatContext, ChatVia } from './context.ts';
import { modelFor, requireAgent } from './context.ts';
import { HOST_FUNCTION_PROMPT } from './host-functions.ts';
import { isIdField } from './llm/offline-fields.ts';
import { exampleFor } from './llm/offline-intents.ts';
import { DESTRUCTIVE_VERBS } from './llm/offline-phrases.ts';
import type { AgentTool } from './runtime/ports.ts';

const MAX_STARTERS = 4;

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
 * description, which says what the tool is rather than what to ask, and never a template.
 */
export function derivedStarters(tools: StarterTool[], limit = MAX_STARTERS): string[] {
  const examples = tools.filter(fitsAStarter).flatMap((t) => exampleFor(t, tools) ?? []);
  const starters = [...new Set(examples.map((e) => e.charAt(0).toUpperCase() + e.slice(1)))];
  return starters.length > 0 ? starters.slice(0, limit) : ['What can you do?'];
}

/**
 * What the chat frame shows for a session: the agent, its tools, up to four starters and the model
 * it runs on.
 */
export async function sessionInfo(ctx: ChatContext, userId: number, agentId: number, via: ChatVia) {
  const agent = await requireAgent(ctx, userId, agentId);
  const tools = await ctx.executor.listAgentTools(userId, agentId);
  // The owner's own starters win; a demo offers its scripted prompts; any other agent its tools' examples.
  const custom = agent.starters.length
    ? agent.starters
    : ctx.suggestedPrompts
      ? await ctx.suggestedPrompts(userId, agentId)
      : undefined;
  // In the copilot one place goes to a prompt that calls the host page (even on the offline
  // model); the owner's own starters keep theirs, so it shows only when they leave room.
  const host = via === 'copilot' && ctx.hostFunctions ? [HOST_FUNCTION_PROMPT] : [];
  const suggestedPrompts = (
    custom?.length ? [...custom, ...host] : [...derivedStarters(tools, MAX_STARTERS - host.length), ...host]
  ).slice(0, MAX_STARTERS);
  const { selection } = modelFor(ctx, agent);
  return {
    agent,
    tools,
    suggestedPrompts,
    model: {
      provider: selection.provider,
      id: selection.id,
      modelId: selection.modelId,
      offline: selection.isOffline,
      label: selection.label ?? null,
      configured: selection.model !== undefined,
    },
  };
}
