import type { ChatContext, ChatVia } from './context.ts';
import { modelFor, requireAgent } from './context.ts';
import { HOST_FUNCTION_PROMPT } from './host-functions.ts';

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
  const suggestedPrompts = custom?.length
    ? [...custom]
    : (await import('./starters.ts')).derivedStarters(tools);
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
