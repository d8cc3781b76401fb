import { errorCodeOf, type ErrorCode } from '@cadre/contract';

/** What the frame says for each `errorCategory` the server reports (finish metadata) or an error chunk. */
export interface ChatProblem {
  title: string;
  detail: string;
}

const TITLES: Record<string, string> = {
  no_model: 'No model is configured',
  rate_limited: 'The model is rate-limited',
  spend_limit: 'The model’s spending limit is reached',
  provider_down: 'The model is unavailable',
  timeout: 'The model did not answer in time',
  provider_error: 'The model failed',
  limit: 'This turn reached its limit',
  approval: 'This approval can no longer be answered',
  budget: 'Your monthly token budget is used up',
  database: 'Cadre cannot reach its database',
};

const DETAILS: Record<string, string> = {
  no_model: 'Ask an administrator to configure an LLM provider, then retry.',
  rate_limited: 'The model is receiving too many requests. Wait a moment and retry.',
  spend_limit: 'The provider refused further requests for this account.',
  provider_down: 'The model provider is down or unreachable. Retry in a moment.',
  timeout: 'The model stopped responding. Retry in a moment.',
  provider_error: 'The model provider returned an error. Retry in a moment.',
  limit: 'The agent used the most steps, tool calls or tokens allowed for one turn.',
  approval: 'Ask the agent again.',
  budget: 'The agent can answer again when the budget resets.',
  database: 'The message could not be sent. Retry in a moment.',
};

/** The problem a refused request's error code is, where the frame says more than its detail. */
const PROBLEM_OF_CODE: Partial<Record<ErrorCode, string>> = {
  approval_closed: 'approval',
  expired: 'approval',
  budget_exceeded: 'budget',
  no_model: 'no_model',
  rate_limited: 'rate_limited',
  spend_limit: 'spend_limit',
  provider_down: 'provider_down',
  timeout: 'timeout',
  provider_error: 'provider_error',
  db_unavailable: 'database',
};

/**
 * What the frame says for a failed run (`category`: its `errorCategory` or `data-error` part) or a
 * refused request (`code`: the error code of the server's answer), with the server's message.
 */
export function describeProblem(input: {
  category?: string | undefined;
  code?: ErrorCode | undefined;
  message?: string | undefined;
}): ChatProblem {
  const category = input.category ?? (input.code && PROBLEM_OF_CODE[input.code]);
  const title = (category && TITLES[category]) ?? 'Something went wrong';
  const detail =
    input.message?.trim() || (category && DETAILS[category]) || 'The answer could not be completed.';
  return { title, detail };
}

/**
 * A failed request as the AI SDK's transport reports it (the raw response body as the message):
 * the server's `detail` and `code`, or the error's own message.
 */
export function refusalOf(error: Error): { message: string; code?: ErrorCode } {
  try {
    const body = JSON.parse(error.message) as { detail?: unknown };
    if (typeof body.detail === 'string') return { message: body.detail, code: errorCodeOf(body) };
  } catch {
    // not a JSON body
  }
  return { message: error.message };
}
