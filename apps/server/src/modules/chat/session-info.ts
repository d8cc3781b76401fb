import type { ChatContext, ChatVia } from './context.ts';
import { modelFor, requireAgent } from './context.ts';
import { HOST_FUNCTION_PROMPT } from './host-functions.ts';

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
  const { derivedStarters, MAX_STARTERS } = await import('./starters.ts');
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
