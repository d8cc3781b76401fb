import type { ErrorCode, ToolStep } from '@cadre/contract';
import { API_WRITE_REFUSAL, type ApiRunInput, type ChatService } from '../chat/index.ts';
import { toolSteps } from './tool-steps.ts';

/** Tokens as the OpenAI API counts them. */
interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** Why an answer ended early without an error of its own. */
const INTERRUPTED =
  'The answer was stopped before it was complete (stopped in Cadre, or the server is restarting); ask again.';

export interface AskOutcome {
  threadId: string;
  /** `complete`, `awaiting_approval` (the answer ends with the approval link), `error` or `interrupted`. */
  status: string;
  usage: TokenUsage;
  /**
   * Why the run failed: the chat's error category, `interrupted`, or `write_refused` (the agent's
   * owner does not allow writes from outside the chat), and its message, safe to show. All but
   * `limit` are error codes (docs/api.md, "Errors"), answered with their status.
   */
  failure?: { category: ErrorCode | 'limit'; message: string };
  /** The tool calls the agent made, in order, as they ended. */
  steps: ToolStep[];
  /** `length` when the model reached the caller's token limit, or the agent its step limit. */
  finishReason: 'stop' | 'length';
  /** The answer's tokens with their log probabilities, as OpenAI gives them, when they were asked for. */
  logprobs?: unknown[];
}

/** What a caller is told while the run goes on. */
export interface AnswerListener {
  /** A piece of the answer; text after a tool call begins with a paragraph break. */
  text(delta: string): void;
  /** A tool step began, or changed how it stands (its result came). */
  step?(step: ToolStep): void;
}

export interface Ask {
  threadId: string;
  /**
   * Reads the run to its end, telling `listener` each piece of the answer and each tool step as
   * they come (the approval note last), and resolves with how it ended.
   */
  answer(listener: AnswerListener): Promise<AskOutcome>;
}

/** Where the owner decides a pending approval: the agent's chat in Cadre, on the run's thread. */
const approvalUrl = (publicUrl: string, agentId: number, threadId: string) =>
  `${publicUrl.replace(/\/+$/, '')}/agents/${agentId}/chat/${encodeURIComponent(threadId)}`;

/** The thread an approval link of the agent names (the link's path is enough: hosts get rewritten). */
export function linkedThread(agentId: number, text: string): string | undefined {
  return new RegExp(
    `/agents/${agentId}/chat/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})`,
  ).exec(text)?.[1];
}

/**
 * Where a caller's conversation goes on: an answer of the agent that ended with an approval link
 * names its thread (the latest such answer), and the messages after the caller's last assistant
 * message are the new turn. Earlier messages are the thread's own, as stored.
 */
export function continuationOf(agentId: number, messages: ApiRunInput['messages']): ApiRunInput['continues'] {
  const linked = messages.findLast((m) => m.role === 'assistant' && linkedThread(agentId, m.text));
  if (!linked) return undefined;
  const from = messages.findLastIndex((m) => m.role === 'assistant') + 1;
  return { threadId: linkedThread(agentId, linked.text)!, from };
}

/**
 * Runs one of the caller's agents for a client outside the chat (the OpenAI-compatible API and the
 * agent's MCP server): the chat's own run (threads, limits, approvals), its answer as plain text. A
 * write or send call is never run here: it stays pending in the run's thread, and the answer ends
 * with a link to approve or decline it there (or it is refused, as the agent's owner chose). A
 * conversation that holds such a link goes on in that thread once the approval is decided.
 */
export async function startAsk(
  chat: ChatService,
  input: ApiRunInput & { publicUrl: string; approvalMinutes: number },
): Promise<Ask> {
  const run = await chat.runForApi(input);
  return {
    threadId: run.threadId,
    async answer(listener) {
      const steps = toolSteps();
      const approvals: string[] = [];
      const refused: string[] = [];
      let errorText: string | undefined;
      let wrote = false;
      let textId: string | undefined;
      const emit = (text: string) => {
        if (!text) return;
        wrote = true;
        listener.text(text);
      };
      for await (const chunk of run.stream) {
        const step = steps.read(chunk);
        if (step) listener.step?.(step);
        if (chunk.type === 'text-start') {
          // Text after a tool call is a new paragraph of the same answer.
          if (wrote && textId !== chunk.id) emit('\n\n');
          textId = chunk.id;
        } else if (chunk.type === 'text-delta') emit(chunk.delta);
        else if (chunk.type === 'tool-approval-request') approvals.push(chunk.toolCallId);
        else if (chunk.type === 'tool-output-error' && chunk.errorText === API_WRITE_REFUSAL) {
          refused.push(chunk.toolCallId);
        } else if (chunk.type === 'error') errorText ??= chunk.errorText;
      }
      const outcome = await run.outcome;
      const namesOf = (ids: string[]) =>
        [...new Set(ids.map((id) => steps.nameOf(id) ?? 'a tool'))].join(', ');
      if (run.stillWaiting) {
        emit(
          `This still waits for your approval (${run.stillWaiting.join(', ') || 'a tool'}); nothing else was done. ` +
            'Approve or decline it in Cadre, then ask again: ' +
            approvalUrl(input.publicUrl, input.agent.id, run.threadId),
        );
      } else if (outcome.pendingApprovals.length > 0) {
        const names = namesOf(approvals);
        emit(
          `${wrote ? '\n\n' : ''}This needs your approval before it runs (${names}). ` +
            `Approve or decline it in Cadre within ${input.approvalMinutes} minutes: ` +
            approvalUrl(input.publicUrl, input.agent.id, run.threadId),
        );
      }
      const prompt = outcome.usage?.inputTokens ?? 0;
      const completion = outcome.usage?.outputTokens ?? 0;
      return {
        threadId: run.threadId,
        status: outcome.status,
        usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
        failure:
          outcome.status === 'error'
            ? {
                category: outcome.errorCategory ?? 'provider_error',
                message: errorText ?? 'The agent failed while answering.',
              }
            : outcome.status === 'interrupted'
              ? { category: 'interrupted', message: INTERRUPTED }
              : refused.length > 0
                ? { category: 'write_refused', message: `${API_WRITE_REFUSAL} Refused: ${namesOf(refused)}.` }
                : undefined,
        steps: steps.all(),
        logprobs: outcome.logprobs,
        finishReason:
          outcome.finishReason === 'length' ||
          (outcome.status === 'error' && outcome.errorCategory === 'limit')
            ? 'length'
            : 'stop',
      };
    },
  };
}
