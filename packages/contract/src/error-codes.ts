// No schema here: the clients need these on their way to a first paint, and a module with zod
// schemas at its top level would bring zod along (docs/benchmarks.md, "First visit JS").

/**
 * The one error vocabulary of the API and the chat service (docs/api.md, "Errors"). Every error
 * answer carries one of these codes; each code has exactly one HTTP status, so a client branches on
 * `code` (never on the message) and the status always agrees with it. The list is closed: a new
 * kind of failure a client must tell apart gets a code here first.
 */
export const ERROR_CODES = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  /** Apart from `forbidden`: an admin disabled the account, so every call is refused until re-enabled. */
  account_disabled: 403,
  /** The agent's write tools are refused for calls from code (OpenAI-compatible API). */
  write_refused: 403,
  not_found: 404,
  conflict: 409,
  /** Apart from `conflict`: a client waits for the run or stops it. */
  run_in_progress: 409,
  /** Apart from `conflict`: the chat says the approval can no longer be answered. */
  approval_closed: 409,
  expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** `detail` is the list of `{loc, msg, type}`... */
  validation_failed: 422,
  /** ...and here a sentence about the input as a whole. */
  unprocessable_content: 422,
  rate_limited: 429,
  budget_exceeded: 429,
  spend_limit: 429,
  internal_error: 500,
  provider_error: 502,
  db_unavailable: 503,
  unavailable: 503,
  no_model: 503,
  provider_down: 503,
  interrupted: 503,
  timeout: 504,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The HTTP status an error with this code answers. */
export const statusOf = (code: ErrorCode): number => ERROR_CODES[code];

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);

/** The `code` of an error answer's body (either shape, the OpenAI one too), if it has one of ours. */
export function errorCodeOf(body: unknown): ErrorCode | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { code, error } = body as { code?: unknown; error?: { code?: unknown } };
  const found = code ?? (typeof error === 'object' && error !== null ? error.code : undefined);
  return isErrorCode(found) ? found : undefined;
}

/**
 * A new `Idempotency-Key`, made once per user action (a form's submission, a chat message) and sent
 * with every request of that action, so a proxy's or a client's retry is known as the same request.
 * 128 random bits from `getRandomValues`, which browsers offer on plain-HTTP origins too (unlike
 * `randomUUID`).
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The headers of one user action's create: `{'idempotency-key': newIdempotencyKey()}`. */
export const idempotencyHeaders = () => ({ 'idempotency-key': newIdempotencyKey() });

/**
 * What an outage answer says cannot serve right now, so a client shows that it waits and tries
 * again by itself: `database` for 503 `db_unavailable`, `service` for 503 `unavailable` or a 503
 * without one of our codes (the proxy's own answer when no instance is up). Other 503s (no model,
 * a provider down, an interrupted run) are not outages of Cadre.
 */
export type Outage = 'database' | 'service';

export function outageOf(status: number, body: unknown): Outage | undefined {
  if (status !== 503) return undefined;
  const code = errorCodeOf(body);
  if (code === 'db_unavailable') return 'database';
  return code === undefined || code === 'unavailable' ? 'service' : undefined;
}

/**
 * The outage to tell of when several requests wait one out: the database's first, as it says more
 * (Cadre answers, its database does not); none when none waits.
 */
export function mostTellingOutage(outages: Iterable<Outage | undefined>): Outage | undefined {
  let found: Outage | undefined;
  for (const outage of outages) {
    if (outage === 'database') return outage;
    found ??= outage;
  }
  return found;
}

/** What the web app and the chat frame say while they wait an outage out. */
export const OUTAGE_NOTICE: Record<Outage, string> = {
  database: 'Cadre cannot reach its database; retrying',
  service: 'Cadre cannot be reached; retrying',
};

/** The longest a client waits between two tries during an outage. */
export const OUTAGE_MAX_RETRY_DELAY_MS = 30_000;

/**
 * How long a client waits before its `failures`-th try again during an outage: at least what the
 * answer's Retry-After asks (seconds), doubling from 1 s with each failure up to 30 s, so clients
 * that met the outage together do not all come back at once for long.
 */
export function outageRetryDelayMs(failures: number, retryAfter: string | null | undefined): number {
  const asked = Number(retryAfter);
  const askedMs = Number.isFinite(asked) && asked > 0 ? asked * 1_000 : 0;
  const backoffMs = 1_000 * 2 ** Math.max(0, failures - 1);
  return Math.min(OUTAGE_MAX_RETRY_DELAY_MS, Math.max(askedMs, backoffMs));
}
