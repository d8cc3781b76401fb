import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.ts';
import { DatabaseNotAnswering, isUnanswered, watchAnswers } from './unanswered.ts';

describe('checkouts while the database answers nothing', () => {
  it('lets every checkout through while the database answers', () => {
    const watch = watchAnswers();
    expect([watch.admit(), watch.admit()]).toEqual([false, false]);
  });

  it('lets one checkout try the database and refuses the others at once, until it answers', () => {
    const watch = watchAnswers();
    watch.unanswered(Date.now());
    expect(watch.admit()).toBe(true);
    expect(() => watch.admit()).toThrow(DatabaseNotAnswering);
    // The try failed: the next checkout tries again.
    watch.tryEnded();
    expect(watch.admit()).toBe(true);
    watch.answered();
    watch.tryEnded();
    expect([watch.admit(), watch.admit()]).toEqual([false, false]);
  });

  it('goes on letting every checkout through when the database answered something else meanwhile', () => {
    const watch = watchAnswers();
    const sent = Date.now() - 1_000;
    // Under load, or on one connection cut off: other statements were answered after it was sent.
    watch.answered();
    watch.unanswered(sent);
    expect([watch.admit(), watch.admit()]).toEqual([false, false]);
  });

  it('refuses with an error that answers 503 db_unavailable', () => {
    expect(isDatabaseUnavailable(new DatabaseNotAnswering())).toBe(true);
  });

  it('counts only timeouts as unanswered: a refused connection or a full pool is an answer of sorts', () => {
    expect(isUnanswered(new Error('Query read timeout'))).toBe(true);
    expect(isUnanswered(new Error('Connection terminated due to connection timeout'))).toBe(true);
    expect(isUnanswered(new Error('timeout exceeded when trying to connect'))).toBe(false);
    expect(isUnanswered(new Error('connect ECONNREFUSED 127.0.0.1:5432'))).toBe(false);
    expect(isUnanswered(new Error('Connection terminated unexpectedly'))).toBe(false);
  });
});
