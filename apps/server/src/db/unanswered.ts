/**
 * What a request does while PostgreSQL has stopped answering (frozen, or cut off by a network that
 * drops packets): without this, each query waits out its own timeout, so a request that runs
 * several, or that a proxy retries on the next instance, waits that long again each time. Once the
 * database has left a query or a new connection unanswered for its timeout (or the readiness
 * probe's write for a second) and answered nothing else meanwhile, every checkout is refused at
 * once with `DatabaseNotAnswering` (a 503 `db_unavailable`), and a probe of its own, one at a time
 * every PROBE_EVERY_MS, asks the database whether it is back. No person's request is made to wait
 * for that question: letting one request through as the try made every request that happened to
 * be it wait a whole connection timeout (4 s), which, one request after another through a proxy,
 * was most of them. Any statement the server answers (with rows or with its own error), the
 * probe's included, lets every checkout through again. Under mere load, or with one connection cut
 * off, other statements go on being answered, so a slow probe or one lost connection refuses nothing.
 */
export interface AnswerWatch {
  /** Asks to check out a connection: throws `DatabaseNotAnswering` while the database is not answering. */
  admit(): void;
  /** The server answered a statement. */
  answered(): void;
  /**
   * A statement or connection sent at `since` (epoch ms) went unanswered for its whole timeout:
   * the database counts as not answering unless it answered something else since then.
   */
  unanswered(since: number): void;
  /** Stops the probe (the pool is closing). */
  close(): void;
}

export class DatabaseNotAnswering extends Error {
  constructor() {
    super('The database is not answering');
    this.name = 'DatabaseNotAnswering';
  }
}

/** How often, while the database answers nothing, the watch's own probe asks it again. */
export const PROBE_EVERY_MS = 1_000;

/**
 * `probe` sends the database one statement outside the watch (its answer, or its own error, must
 * reach `answered` through the same pool wrapper, or resolve: either counts as an answer).
 */
export function watchAnswers(probe: () => Promise<void>, probeEveryMs = PROBE_EVERY_MS): AnswerWatch {
  let answering = true;
  let lastAnswer = 0;
  let probing: NodeJS.Timeout | undefined;
  let inFlight = false;
  const answered = () => {
    answering = true;
    lastAnswer = Date.now();
    clearInterval(probing);
    probing = undefined;
  };
  const askAgain = () => {
    if (inFlight) return;
    inFlight = true;
    probe()
      .then(answered, () => {})
      .finally(() => (inFlight = false));
  };
  return {
    admit() {
      if (!answering) throw new DatabaseNotAnswering();
    },
    answered,
    unanswered(since) {
      if (lastAnswer >= since || !answering) return;
      answering = false;
      probing = setInterval(askAgain, probeEveryMs);
      probing.unref();
    },
    close: () => clearInterval(probing),
  };
}

/** A pg error that means the server gave no answer in time (not one it sent, nor a refused pool). */
export const isUnanswered = (err: Error) =>
  err.message === 'Query read timeout' ||
  err.message.startsWith('Connection terminated due to connection timeout');
