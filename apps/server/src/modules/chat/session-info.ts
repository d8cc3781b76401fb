import type { ChatContext, ChatVia } from './context.ts';
import { modelFor, requireAgent } from './context.ts';
import { HOST_FUNCTION_PROMPT } from './host-functions.ts';
import { exampleRequest } from './llm/offline-arguments.ts';
import { TOOL_EXAMPLES } from './llm/offline-phrases.ts';
import type { AgentTool } from './runtime/ports.ts';

const MAX_STARTERS = 4;

/**
 * Up to four requests a person would type, one per tool: the offline model's tested example for a
 * well-known tool, else one made from the tool's name and inputs. Never the tool's description,
 * which says what the tool is rather than what to ask.
 */
export function derivedStarters(tools: Pick<AgentTool, 'name' | 'inputSchema'>[]): string[] {
  if (tools.length === 0) return ['What can you do?'];
  const examples = tools.map((t) => TOOL_EXAMPLES[t.name] ?? exampleRequest(t.name, t.inputSchema));
  return [...new Set(examples.map((e) => e.charAt(0).toUpperCase() + e.slice(1)))].slice(0, MAX_STARTERS);
}

/**
 * What the chat frame shows for a session: the agent, its tools, the starters it suggests and the
 * model it runs on. In the copilot, one more prompt makes even the offline model call a host-page
 * function.
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
  const suggestedPrompts = custom?.length ? [...custom] : derivedStarters(tools);
  if (via === 'copilot' && ctx.hostFunctions) suggestedPrompts.push(HOST_FUNCTION_PROMPT);
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
