import { describe, expect, it } from 'vitest';
import { describeProblem, refusalOf } from './errors';

describe('what the frame says for a refused turn', () => {
  it("titles the monthly token budget's 429 by its code and keeps the server's sentence with its reset date", () => {
    const message =
      "You have used this month's token budget (60 of 50 tokens). It resets on 2026-12-01 (UTC).";
    expect(describeProblem({ code: 'budget_exceeded', message })).toEqual({
      title: 'Your monthly token budget is used up',
      detail: message,
    });
    // A per-minute limit is still the model's rate limit.
    expect(
      describeProblem({ code: 'rate_limited', message: 'Too many chat messages; wait a moment' }).title,
    ).toBe('The model is rate-limited');
  });

  it('goes by the code, never by the words of the message', () => {
    expect(describeProblem({ code: 'expired', message: 'This approval expired; ask again' }).title).toBe(
      'This approval can no longer be answered',
    );
    expect(
      describeProblem({ code: 'approval_closed', message: 'This approval was already decided' }).title,
    ).toBe('This approval can no longer be answered');
    expect(describeProblem({ code: 'conflict', message: 'The token budget is rate-limited' })).toEqual({
      title: 'Something went wrong',
      detail: 'The token budget is rate-limited',
    });
    // A run's own category wins over the request's code.
    expect(describeProblem({ category: 'timeout', code: 'conflict' }).title).toBe(
      'The model did not answer in time',
    );
  });

  it('names a database outage by its code, with Retry', () => {
    expect(describeProblem({ code: 'db_unavailable' })).toEqual({
      title: 'Cadre cannot reach its database',
      detail: 'The message could not be sent. Retry in a moment.',
    });
  });

  it("reads the server's answer out of the transport's error", () => {
    const body = JSON.stringify({ detail: 'A run is already in progress', code: 'run_in_progress' });
    expect(refusalOf(new Error(body))).toEqual({
      message: 'A run is already in progress',
      code: 'run_in_progress',
    });
    expect(refusalOf(new Error(JSON.stringify({ detail: 'x', code: 'made_up' })))).toEqual({
      message: 'x',
      code: undefined,
    });
    expect(refusalOf(new Error('Failed to fetch'))).toEqual({ message: 'Failed to fetch' });
  });
});
