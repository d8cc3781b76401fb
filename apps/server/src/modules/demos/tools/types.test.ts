import { describe, expect, it } from 'vitest';
import { DemoInputError } from './types.ts';
import { compareStartups, searchStartups } from './vc.ts';

// The deal-flow tools read only the shipped data, so they run without a database.
const ctx = { db: undefined as never, userId: 1, now: () => new Date('2030-01-01T00:00:00Z') };

describe('demo tool input', () => {
  it('gives the parsed, trimmed input to the tool', async () => {
    const out = await compareStartups.run(ctx, { companies: '  Novapay, Ledgerline  ' });
    expect(out).toMatch(/\| Growth \(YoY\) \| 142% \| 210% \|/);
  });

  it.each([
    [{ sector: 'crypto' }, 'sector'],
    [{ min_growth_pct: 'fast' }, 'min_growth_pct'],
    [{ owner: 'me' }, 'owner'],
  ])('refuses %j with an input error naming the field', async (args, field) => {
    const run = searchStartups.run(ctx, args);
    await expect(run).rejects.toBeInstanceOf(DemoInputError);
    await expect(run).rejects.toThrow(field);
  });

  it('refuses a missing required field by name', async () => {
    await expect(compareStartups.run(ctx, {})).rejects.toThrow(/companies/);
  });
});
