import { describe, expect, it } from 'vitest';
import { describeProblem } from './errors';

describe('what the frame says for a refused turn', () => {
  it("titles the monthly token budget's 429 as such and keeps the server's sentence with its reset date", () => {
    const message =
      "You have used this month's token budget (60 of 50 tokens). It resets on 2026-12-01 (UTC).";
    expect(describeProblem({ message })).toEqual({
      title: 'Your monthly token budget is used up',
      detail: message,
      reconnect: false,
    });
    // A per-minute limit is still the model's rate limit.
    expect(describeProblem({ message: 'Too many chat messages; wait a moment' }).title).toBe(
      'The model is rate-limited',
    );
  });
});
