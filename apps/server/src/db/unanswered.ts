/**
 * What a request does while PostgreSQL has stopped answering (frozen, or cut off by a network that
 * drops packets): without this, each query waits out its own timeout, so a request that runs
 * several, or that a proxy retries on the next instance, waits that long again each time. Once the
 * database has left a query or a new connection unanswered for its timeout (or the readiness
 * probe's write for a second) and answered nothing else meanwhile, new checkouts are refused at
 * once with `DatabaseNotAnswering` (a 503 `db_unavailable`), except one at a time that tries the
 * database for real. Any statement the server answers (with rows or with its own error) lets every
 * checkout through again. Under mere load, or with one connection cut off, other statements go on
 * being answered, so a slow probe or one lost connection refuses nothing.
 */
export interface AnswerWatch {
  /**
   * Asks to check out a connection: resolves to whether this checkout is the one trying the
   * database while it is not answering; throws `DatabaseNotAnswering` when another one already is.
   */
  admit(): boolean;
  /** The server answered a statement. */
  answered(): void;
  /**
   * A statement or connection sent at `since` (epoch ms) went unanswered for its whole timeout:
   * the database counts as not answering unless it answered something else since then.
   */
  unanswered(since: number): void;
  /** A checkout `admit` let through as the try has ended, whatever came of it. */
  tryEnded(): void;
}

export class DatabaseNotAnswering extends Error {
  constructor() {
    super('The database is not answering');
    this.name = 'DatabaseNotAnswering';
  }
}

export function watchAnswers(): AnswerWatch {
  let answering = true;
  let trying = false;
  let lastAnswer = 0;
  return {
    admit() {
      if (answering) return false;
      if (trying) throw new DatabaseNotAnswering();
      trying = true;
      return true;
    },
    answered() {
      answering = true;
      lastAnswer = Date.now();
    },
    unanswered(since) {
      if (lastAnswer < since) answering = false;
    },
    tryEnded: () => void (trying = false),
  };
}

/** A pg error that means the server gave no answer in time (not one it sent, nor a refused pool). */
export const isUnanswered = (err: Error) =>
  err.message === 'Query read timeout' ||
  err.message.startsWith('Connection terminated due to connection timeout');
