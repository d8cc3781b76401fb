import { describe, expect, it } from 'vitest';
import { costOf, monthOf } from './service.ts';

describe('usage arithmetic', () => {
  it('counts a month in UTC, the last day of December rolling into January', () => {
    expect(monthOf(new Date('2025-12-31T23:59:59.999Z'))).toEqual({
      start: new Date('2025-12-01T00:00:00.000Z'),
      next: new Date('2026-01-01T00:00:00.000Z'),
    });
    // 23:30 on 31 January in New York is already February in UTC.
    expect(monthOf(new Date('2026-01-31T23:30:00-05:00')).start).toEqual(
      new Date('2026-02-01T00:00:00.000Z'),
    );
  });

  it("costs tokens at the model's prices per million, and has no cost without prices", () => {
    expect(costOf({ input: 2.5, output: 10 }, 1_000_000, 500_000)).toBe(7.5);
    expect(costOf({ input: null, output: 4 }, 1_000, 1_000_000)).toBe(4);
    expect(costOf({ input: null, output: null }, 10, 10)).toBeNull();
    expect(costOf(undefined, 10, 10)).toBeNull();
  });
});
