import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.ts';
import { DatabaseNotAnswering, isUnanswered, watchAnswers } from './unanswered.ts';

describe('checkouts while the database answers nothing', () => {
  const noProbe = () => new Promise<void>(() => {});

  it('lets every checkout through while the database answers', () => {
    const watch = watchAnswers(noProbe);
    expect(() => [watch.admit(), watch.admit()]).not.toThrow();
  });

  it('refuses every checkout at once while the database answers nothing, and lets them through once it answers', () => {
    const watch = watchAnswers(noProbe);
    watch.unanswered(Date.now());
    expect(() => watch.admit()).toThrow(DatabaseNotAnswering);
    expect(() => watch.admit()).toThrow(DatabaseNotAnswering);
    watch.answered();
    expect(() => [watch.admit(), watch.admit()]).not.toThrow();
    watch.close();
  });

  it('asks the database again with its own probe, one at a time, and reopens when the probe is answered', async () => {
    let asked = 0;
    let answer: () => void = () => {};
    const watch = watchAnswers(() => {
      asked += 1;
      return new Promise<void>((resolve) => (answer = resolve));
    }, 10);
    watch.unanswered(Date.now());
    await new Promise((resolve) => setTimeout(resolve, 60));
    // Several intervals passed while the first probe waited: no second one was sent.
    expect(asked).toBe(1);
    expect(() => watch.admit()).toThrow(DatabaseNotAnswering);
    answer();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(() => watch.admit()).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 40));
    // Answered: the probe stopped.
    expect(asked).toBe(1);
  });

  it('goes on letting every checkout through when the database answered something else meanwhile', () => {
    const watch = watchAnswers(noProbe);
    const sent = Date.now() - 1_000;
    // Under load, or on one connection cut off: other statements were answered after it was sent.
    watch.answered();
    watch.unanswered(sent);
    expect(() => [watch.admit(), watch.admit()]).not.toThrow();
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
