import { APPROVAL_REFUSALS } from '@cadre/contract';
/** What the frame says for each `errorCategory` the server reports (finish metadata) or an error chunk. */
export interface ChatProblem {
  title: string;
  detail: string;
  /** Show a link to the web app's Services page. */
  reconnect?: boolean;
}

const TITLES: Record<string, string> = {
  no_model: 'No model is configured',
  rate_limited: 'The model is rate-limited',
  spend_limit: 'The model’s spending limit is reached',
  provider_down: 'The model is unavailable',
  timeout: 'The model did not answer in time',
  provider_error: 'The model failed',
  limit: 'This turn reached its limit',
  tool_failed: 'A tool failed',
  connection_expired: 'A connection has expired',
  approval: 'This approval can no longer be answered',
  budget: 'Your monthly token budget is used up',
};

const DETAILS: Record<string, string> = {
  no_model: 'Ask an administrator to configure an LLM provider, then retry.',
  rate_limited: 'The model is receiving too many requests. Wait a moment and retry.',
  spend_limit: 'The provider refused further requests for this account.',
  provider_down: 'The model provider is down or unreachable. Retry in a moment.',
  timeout: 'The model stopped responding. Retry in a moment.',
  provider_error: 'The model provider returned an error. Retry in a moment.',
  limit: 'The agent used the most steps, tool calls or tokens allowed for one turn.',
  tool_failed: 'One of the agent’s tools returned an error. See the step above for details.',
  connection_expired: 'Reconnect the service, then retry.',
  approval: 'Ask the agent again.',
  budget: 'The agent can answer again when the budget resets.',
};

export function describeProblem(input: {
  category?: string | undefined;
  message?: string | undefined;
}): ChatProblem {
  // An approval that expired or was already answered is about the approval, never a connection.
  const category =
    input.category ??
    (input.message && APPROVAL_REFUSALS.includes(input.message.trim())
      ? 'approval'
      : input.message && /token budget/i.test(input.message)
        ? 'budget'
        : input.message && /expired|reconnect/i.test(input.message)
          ? 'connection_expired'
          : input.message && /no (llm|model).*configured|not configured/i.test(input.message)
            ? 'no_model'
            : input.message && /rate.?limit|429|too many/i.test(input.message)
              ? 'rate_limited'
              : undefined);
  const title = (category && TITLES[category]) ?? 'Something went wrong';
  const detail =
    input.message?.trim() || (category && DETAILS[category]) || 'The answer could not be completed.';
  return { title, detail, reconnect: category === 'connection_expired' };
}

/**
 * What to show for a failed request: the server's `{detail}`, which the AI SDK's transport reports
 * as the raw response body, or the error's own message.
 */
export function errorDetail(error: Error): string {
  try {
    const body = JSON.parse(error.message) as { detail?: unknown };
    if (typeof body.detail === 'string') return body.detail;
  } catch {
    // not a JSON body
  }
  return error.message;
}
