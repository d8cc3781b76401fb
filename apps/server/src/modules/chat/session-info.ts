import type { ChatContext, ChatVia } from './context.ts';
import { modelFor, requireAgent } from './context.ts';
import { HOST_FUNCTION_PROMPT } from './host-functions.ts';
import { exampleRequests } from '../offline-model/index.ts';

/** The most starters a session shows. */
const MAX_STARTERS = 4;
/** The starter of an agent none of whose tools has an example request (or that has no tools). */
const NO_EXAMPLE_STARTER = 'What can you do?';

/**
 * What the chat frame shows for a session: the agent, its tools, up to four starters and the model
 * it runs on.
 */
export async function sessionInfo(ctx: ChatContext, userId: number, agentId: number, via: ChatVia) {
  const agent = await requireAgent(ctx, userId, agentId);
  const tools = await ctx.executor.listAgentTools(userId, agentId);
  // The owner's own starters win; a demo offers its scripted prompts; any other agent its tools'
  // example requests (those the offline model answers with the tool, so they are never templates).
  const custom = agent.starters.length
    ? agent.starters
    : ctx.suggestedPrompts
      ? await ctx.suggestedPrompts(userId, agentId)
      : undefined;
  // In the copilot one place goes to a prompt that calls the host page (even on the offline
  // model); the owner's own starters keep theirs, so it shows only when they leave room.
  const host = via === 'copilot' && ctx.hostFunctions ? [HOST_FUNCTION_PROMPT] : [];
  // A tool whose service must be connected again would only fail: it offers no starter.
  const usable = tools.filter((tool) => tool.connected !== false);
  const examples = custom?.length ? [] : await exampleRequests(usable, MAX_STARTERS - host.length);
  const starters = custom?.length ? custom : examples.length > 0 ? examples : [NO_EXAMPLE_STARTER];
  const suggestedPrompts = [...starters, ...host].slice(0, MAX_STARTERS);
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
