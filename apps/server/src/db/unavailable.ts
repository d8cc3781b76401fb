/**
 * Whether an error means the database cannot serve right now (down, restarting, frozen, out of
 * connections or disk, read-only), as opposed to a bug or a rule. Such errors answer 503 with
 * Retry-After, so load balancers and clients retry instead of reporting a failure.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let err = error, depth = 0; err instanceof Error && depth < 5; err = err.cause, depth += 1) {
    const code = (err as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (NODE_CODES.has(code) || isUnavailableSqlState(code) || isSqliteUnavailable(code))
    )
      return true;
    if (MESSAGES.some((pattern) => pattern.test(err.message))) return true;
  }
  return false;
}

/** Socket errors on the way to PostgreSQL. */
const NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);

/**
 * Whether a transaction lost to a concurrent one (PostgreSQL class 40: a deadlock, a serialization
 * failure) and may simply run again: nothing of it was committed.
 */
export function isTransactionConflict(error: unknown): boolean {
  for (let err = error, depth = 0; err instanceof Error && depth < 5; err = err.cause, depth += 1) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && /^40[0-9A-Z]{3}$/.test(code)) return true;
  }
  return false;
}

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 53 (insufficient resources: disk full,
 * too many connections), 57P01-57P05 (shutdown, crash, cannot connect now), 57014 (statement
 * timeout), 25006 (read-only transaction: a standby or a read-only database), 58 (I/O), and 40 (a
 * transaction that lost to a concurrent one: retrying it is the answer, so it is a 503 too).
 */
function isUnavailableSqlState(code: string): boolean {
  if (!/^[0-9A-Z]{5}$/.test(code)) return false;
  return (
    code.startsWith('40') ||
    code.startsWith('08') ||
    code.startsWith('53') ||
    code.startsWith('58') ||
    /^57P0[1-5]$/.test(code) ||
    code === '57014' ||
    code === '25006'
  );
}

/** better-sqlite3 codes: busy or locked past the busy timeout, disk full, I/O errors, read-only. */
const isSqliteUnavailable = (code: string) =>
  /^SQLITE_(BUSY|LOCKED|FULL|IOERR|READONLY|CANTOPEN|PROTOCOL)/.test(code);

/** pg and pg-pool errors that carry no code. */
const MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Query read timeout$/,
  /not queryable/,
  /^Cannot use a pool after calling end/,
  // unanswered.ts: the server left other requests unanswered, so this one does not wait.
  /^The database is not answering$/,
];
