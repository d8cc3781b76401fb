import type { ChatContext, ChatVia } from './context.ts';
import { requireAgent } from './context.ts';
import { HOST_FUNCTION_PROMPT } from './host-functions.ts';
import type { AgentTool } from './runtime/ports.ts';

/** Up to three prompts that name the agent's tools; a generic one when it has none. */
function derivedPrompts(tools: AgentTool[]): string[] {
  if (tools.length === 0) return ['What can you do?'];
  return tools.slice(0, 3).map((t) => (t.description ? `${t.displayName}: ${t.description}` : t.displayName));
}

/**
 * What the chat frame shows for a session: the agent, its tools, the prompts it suggests and the
 * model it runs on. In the copilot, one more prompt makes even the offline model call a host-page
 * function.
 */
export async function sessionInfo(ctx: ChatContext, userId: number, agentId: number, via: ChatVia) {
  const agent = await requireAgent(ctx, userId, agentId);
  const tools = await ctx.executor.listAgentTools(userId, agentId);
  const custom = ctx.suggestedPrompts ? await ctx.suggestedPrompts(userId, agentId) : undefined;
  const suggestedPrompts = custom?.length ? [...custom] : derivedPrompts(tools);
  if (via === 'copilot' && ctx.hostFunctions) suggestedPrompts.push(HOST_FUNCTION_PROMPT);
  const { selection } = ctx;
  return {
    agent,
    tools,
    suggestedPrompts,
    model: {
      provider: selection.provider,
      modelId: selection.modelId,
      offline: selection.isOffline,
      label: selection.label ?? null,
      configured: selection.model !== undefined,
    },
  };
}
