import { describe, expect, it } from 'vitest';
import { limitOutput } from './output-limits.ts';

describe('the offline model within the caller’s limits', () => {
  const answer = 'The sum of 17 and 25 is **42**.\n\nAnything else?';

  it('answers in full when nothing limits it', () => {
    expect(limitOutput(answer, {})).toEqual({ text: answer });
    expect(limitOutput(answer, { maxOutputTokens: 100, stopSequences: ['zzz'] })).toEqual({ text: answer });
  });

  it('ends after max tokens (words) with finish "length"', () => {
    expect(limitOutput(answer, { maxOutputTokens: 3 })).toEqual({ text: 'The sum of ', cut: 'length' });
  });

  it('ends before the first stop sequence found, with finish "stop"', () => {
    expect(limitOutput(answer, { stopSequences: ['\n\n', '42'] })).toEqual({
      text: 'The sum of 17 and 25 is **',
      cut: 'stop',
    });
  });

  it('applies whichever limit comes first', () => {
    expect(limitOutput(answer, { maxOutputTokens: 2, stopSequences: ['42'] }).cut).toBe('length');
    expect(limitOutput(answer, { maxOutputTokens: 50, stopSequences: ['sum'] })).toEqual({
      text: 'The ',
      cut: 'stop',
    });
  });
});
