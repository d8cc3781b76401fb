import { APICallError } from '@ai-sdk/provider';
import type { ModelFailureCode } from '@cadre/contract';

/**
 * The few things that can go wrong with a language model, as the person chatting sees them: error
 * codes of the API's vocabulary (the contract's MODEL_FAILURE_CODES). The chat frame switches on
 * `category`; `message` is safe to show (it never carries provider bodies, keys or stack traces).
 */
export type LlmErrorCategory = ModelFailureCode;

const MESSAGES: Record<LlmErrorCategory, string> = {
  no_model:
    'No language model is configured. Set LLM_PROVIDER, LLM_MODEL and LLM_API_KEY (see docs/configuration.md).',
  rate_limited: 'The language model is rate-limited right now. Try again in a moment.',
  spend_limit:
    "The language model provider refused the request: the account's spend limit or quota is used up.",
  provider_down: 'The language model provider is unavailable right now. Try again later.',
  timeout: 'The language model stopped answering (timed out).',
  provider_error: 'The language model provider returned an error.',
};

export class LlmError extends Error {
  readonly category: LlmErrorCategory;
  readonly statusCode?: number;
  constructor(category: LlmErrorCategory, options: { statusCode?: number; cause?: unknown } = {}) {
    super(MESSAGES[category], { cause: options.cause });
    this.name = 'LlmError';
    this.category = category;
    this.statusCode = options.statusCode;
  }
}

/** A 429 that retrying cannot fix: Anthropic's spend limit, OpenAI's exhausted quota. */
export function isSpendLimit(error: APICallError): boolean {
  if (error.statusCode !== 429 && error.statusCode !== 402) return false;
  const body = error.responseBody ?? '';
  return /enforced_spend_limit_reached|insufficient_quota|billing_hard_limit|spend[_ ]limit/i.test(body);
}

/** Maps anything a model call can throw to an `LlmError` (or returns it unchanged). */
export function toLlmError(error: unknown): LlmError {
  if (error instanceof LlmError) return error;
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status !== undefined && isSpendLimit(error))
      return new LlmError('spend_limit', { statusCode: status, cause: error });
    if (status === 429) return new LlmError('rate_limited', { statusCode: status, cause: error });
    if (status === undefined || status >= 500)
      return new LlmError('provider_down', { statusCode: status, cause: error });
    return new LlmError('provider_error', { statusCode: status, cause: error });
  }
  const nested = (error as { lastError?: unknown; cause?: unknown } | null)?.lastError;
  if (nested) return toLlmError(nested);
  return new LlmError('provider_error', { cause: error });
}
