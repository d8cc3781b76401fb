import { errorCodeOf, outageOf, type ErrorCode, type Outage } from '@cadre/contract';

/**
 * Errors raised by the API client (spec section 8, "API client errors"): a failed response raises
 * an `ApiError` carrying url, status, status text and body; a cancelled request raises a
 * `CancelError` whose message is 'Request aborted'. Screens branch on the body's error `code`
 * (docs/api.md, "Errors"), never on its message.
 */

/** What each status is called in an ApiError's message; 422 is the API's validation answer. */
export const STATUS_LABELS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Validation Error',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export class ApiError extends Error {
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly body: unknown;
  /** The answer's Retry-After header (seconds, as the API sends it), if it had one. */
  readonly retryAfter: string | null;

  constructor(init: {
    url: string;
    status: number;
    statusText: string;
    body: unknown;
    retryAfter?: string | null;
  }) {
    const label = STATUS_LABELS[init.status];
    super(
      label ??
        `Generic Error: status: ${init.status}; status text: ${init.statusText}; body: ${stringify(init.body)}`,
    );
    this.name = 'ApiError';
    this.url = init.url;
    this.status = init.status;
    this.statusText = init.statusText;
    this.body = init.body;
    this.retryAfter = init.retryAfter ?? null;
  }

  /** The API's error code, when the body is one of its error answers. */
  get code(): ErrorCode | undefined {
    return errorCodeOf(this.body);
  }
}

/**
 * The outage this error is (Cadre or its database cannot serve right now), if it is one: an
 * `ApiError`, or the chat client's `ChatHttpError` (the chat sign-in), both with `status` and `code`.
 */
export function outageOfError(error: unknown): Outage | undefined {
  if (error instanceof ApiError) return outageOf(error.status, error.body);
  const { status, code } = (error ?? {}) as { status?: unknown; code?: unknown };
  return error instanceof Error && typeof status === 'number' ? outageOf(status, { code }) : undefined;
}

export class CancelError extends Error {
  constructor() {
    super('Request aborted');
    this.name = 'CancelError';
  }

  get isCancelled() {
    return true;
  }
}

function stringify(body: unknown) {
  try {
    return typeof body === 'string' ? body : JSON.stringify(body);
  } catch {
    return String(body);
  }
}

/** The API refused the access token (or there was none): sign-in has to be renewed. */
export const isUnauthorized = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.code === 'unauthorized';

interface Issue {
  loc?: unknown[];
  msg?: string;
}

const issueText = (issue: Issue) => {
  const field = issue.loc?.filter((part) => part !== 'body').join('.');
  return field ? `${field}: ${issue.msg ?? 'invalid'}` : (issue.msg ?? 'invalid');
};

/** The API's answer as text: each 422 issue with the field it names, or the error's detail. */
export function describeApiError(error: unknown, fallback: string): string[] {
  if (error instanceof ApiError) {
    const detail = (error.body as { detail?: unknown } | null)?.detail;
    if (Array.isArray(detail)) {
      return (detail as Issue[]).map(issueText);
    }
    if (typeof detail === 'string') return [detail];
  }
  return [fallback];
}

/** A refusal as a form shows it: the message under each field it names, and the rest as text. */
export interface FormErrors<F extends string> {
  fields: Partial<Record<F, string>>;
  other: string[];
}

/**
 * Splits the API's answer over a form's fields: a 422 issue about one of `fields` of the body goes
 * under that field (its first message), any other issue or error is described as text.
 */
export function formErrors<F extends string>(
  error: unknown,
  fields: readonly F[],
  fallback: string,
): FormErrors<F> {
  const result: FormErrors<F> = { fields: {}, other: [] };
  const detail = error instanceof ApiError ? (error.body as { detail?: unknown } | null)?.detail : undefined;
  if (!(error instanceof ApiError) || error.code !== 'validation_failed' || !Array.isArray(detail)) {
    result.other = describeApiError(error, fallback);
    return result;
  }
  for (const issue of detail as Issue[]) {
    // ['body', 'agent_ids', 2] is about the field agent_ids too.
    const field = issue.loc?.[0] === 'body' ? issue.loc[1] : undefined;
    if (fields.includes(field as F)) result.fields[field as F] ??= issue.msg ?? 'invalid';
    else result.other.push(issueText(issue));
  }
  return result;
}
