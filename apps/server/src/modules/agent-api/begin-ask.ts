import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ValidationFailure } from '../../http/errors.ts';
import { disconnectSignal } from '../../http/disconnect.ts';
import type { ApiRunInput, ChatService, GenerationOptions } from '../chat/index.ts';
import type { ApiAgents } from './ports.ts';
import { reachableAgent } from './access.ts';
import { continuationOf, startAsk } from './ask.ts';
import { agentIdOf, modelIdOf } from './model-ids.ts';
import { modelNotFound } from './openai-errors.ts';

export interface AgentApiOptions {
  chat: ChatService;
  agents: ApiAgents;
  publicUrl: string;
  /** How long an approval the answer asks for can be decided (CHAT_APPROVAL_TTL_SECONDS). */
  approvalMinutes: number;
  /** 429 once the caller used the month's token budget (the usage module). */
  checkBudget(userId: number): Promise<void>;
}

/** One message of the caller's conversation, with where it is in the request (for errors). */
export interface CallerMessage {
  role: 'system' | 'developer' | 'user' | 'assistant';
  text: string;
  loc: (string | number)[];
}

/** The caller's messages as the conversation the agent continues; the last must be the user's. */
function conversation(messages: CallerMessage[]): ApiRunInput['messages'] {
  for (const m of messages) {
    if (m.role !== 'assistant' && !m.text.trim()) {
      throw new ValidationFailure([
        { loc: ['body', ...m.loc, 'content'], msg: 'is empty', type: 'value_error' },
      ]);
    }
  }
  const last = messages.at(-1);
  if (!last || last.role === 'assistant') {
    throw new ValidationFailure([
      {
        loc: ['body', ...(last?.loc ?? []), 'role'],
        msg: 'the last message must be the user’s (or a system or developer message)',
        type: 'value_error',
      },
    ]);
  }
  // System and developer messages are the caller's words: the agent's own guidelines stay first.
  return messages
    .filter((m) => m.text.trim())
    .map((m) => ({
      role: m.role === 'assistant' ? ('assistant' as const) : ('user' as const),
      text: m.text,
    }));
}

/**
 * Starts the agent a request's `model` names on the caller's conversation, with the generation
 * settings its model can honour (a 400 naming the parameter otherwise), for both the chat
 * completions and the responses route.
 */
export async function beginAsk(
  options: AgentApiOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  asked: {
    model: string | number;
    messages: CallerMessage[];
    generation: (provider: ReturnType<ChatService['providerFor']>) => GenerationOptions;
  },
) {
  const agentId = agentIdOf(asked.model);
  const agent = agentId === undefined ? undefined : await reachableAgent(options.agents, request, agentId);
  if (!agent) throw modelNotFound(asked.model);
  const generation = asked.generation(options.chat.providerFor(agent));
  const messages = conversation(asked.messages);
  const ask = await startAsk(options.chat, {
    userId: request.user.id,
    agent,
    messages,
    continues: continuationOf(agent.id, messages),
    origin: 'api',
    signal: disconnectSignal(reply),
    publicUrl: options.publicUrl,
    approvalMinutes: options.approvalMinutes,
    generation,
  });
  reply.header('x-cadre-thread-id', ask.threadId);
  return { ask, model: modelIdOf(agent) };
}

/** Opens a server-sent event stream on the reply; `send` writes one event until the client left. */
export function eventStream(reply: FastifyReply) {
  const out = new PassThrough();
  reply
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-accel-buffering', 'no');
  return {
    body: out,
    // A client that went away closed the stream; the run stops on its own (disconnectSignal).
    send(data: unknown, event?: string) {
      if (!out.destroyed) out.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
    },
    end(last?: string) {
      if (!out.destroyed) out.end(last);
    },
  };
}
