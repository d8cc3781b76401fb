import type { AgentProfile } from './ports.ts';
import { startApiRun, type ApiRunInput } from './api-runs.ts';
import { decide, type DecisionInput } from './approvals.ts';
import { createChatContext, modelFor, type ChatServiceDeps, type ChatVia } from './context.ts';
import { createFeedback } from './feedback.ts';
import { sessionInfo } from './session-info.ts';
import { createThreads } from './threads.ts';
import { alreadySent, startTurn, type SentTurn, type TurnInput } from './turns.ts';
import { runUnattended, type UnattendedInput } from './unattended.ts';

/**
 * The chat service: threads, turns, approvals, stop and unattended runs. Callers pass the
 * authenticated principal (user and agent); every method checks ownership before touching anything.
 */
export function createChatService(deps: ChatServiceDeps) {
  const ctx = createChatContext(deps);
  return {
    ...createThreads(ctx),
    ...createFeedback(ctx),
    sessionInfo: (userId: number, agentId: number, via: ChatVia) => sessionInfo(ctx, userId, agentId, via),
    startTurn: (input: TurnInput) => startTurn(ctx, input),
    alreadySent: (sent: SentTurn) => alreadySent(ctx, sent),
    decide: (input: DecisionInput) => decide(ctx, input),
    runUnattended: (input: UnattendedInput) => runUnattended(ctx, input),
    runForApi: (input: ApiRunInput) => startApiRun(ctx, input),
    /** The provider of the model the agent answers with now (what generation settings it can take). */
    providerFor: (agent: Pick<AgentProfile, 'modelId'>) => modelFor(ctx, agent).selection.provider,
  };
}

export type ChatService = ReturnType<typeof createChatService>;
export type { ChatServiceDeps, ChatVia };
